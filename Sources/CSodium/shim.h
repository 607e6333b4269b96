// libsodium (Debian's libsodium-dev), for sync: the journal key sealing each file it writes
// (XChaCha20-Poly1305) and the key wrapped by one derived from the sync passphrase (Argon2id).
// Not GTK: the core seals and opens; only ciphertext leaves the machine.
#ifndef FLOURISH_CSODIUM_SHIM_H
#define FLOURISH_CSODIUM_SHIM_H
#include <sodium.h>
#endif
