import Foundation
import WebDAVWire

// Flourish's WebDAV helper: started by the app (see FlourishCore's WebDAVHelper) with a local
// socket as its standard input and output, it makes each request it is sent and sends back what
// became of it, one at a time, until the app closes the socket. It alone links Foundation's
// network stack, so that the app's own start loads none of it.

// The app gone mid-answer: the write fails (MSG_NOSIGNAL), and the helper ends.
signal(SIGPIPE, SIG_IGN)
while let (request, body) = WebDAVWire.receive(WebDAVRequest.self, from: STDIN_FILENO) {
    let (outcome, answer) = Transport.perform(request, body: body)
    guard WebDAVWire.send(outcome, body: answer, to: STDOUT_FILENO) else { break }
}
exit(0)
