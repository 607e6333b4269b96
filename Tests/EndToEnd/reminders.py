#!/usr/bin/python3
"""End to end: the daily reminder. The real flourish binary runs as the background service the
login item starts (`--gapplication-service`), under Xvfb, with python3-dbusmock's notification
server on the session bus (scripts/with-display's). The notification's text and buttons are read
from the server's log of calls; its buttons are pressed by the server's own signal, as a desktop
would send it; the window that opens is read through the accessibility tree (AT-SPI).

    reminders.py BINARY

Each scenario has its own XDG folders (so its own journal, preferences and login item) and its
own notification server (so notification ids start at 1).
"""
import contextlib
import datetime
import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
# The journeys' helpers: checks, waiting, the accessibility tree, the keyboard.
from journey import Failure, WORK, check, find, keys, type_text, wait_for  # noqa: E402
import journey  # noqa: E402
import pyatspi  # noqa: E402

BINARY = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".build/debug/flourish")
APP_ID = "org.flourishjournal.Flourish"
MOCK = ["gdbus", "call", "--session", "--dest", "org.freedesktop.Notifications", "--object-path", "/org/freedesktop/Notifications"]


class NotificationServer:
    """python3-dbusmock's notification daemon, answering org.freedesktop.Notifications."""

    def __init__(self):
        self.process = subprocess.Popen(["/usr/bin/python3", "-m", "dbusmock", "--template", "notification_daemon"],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_for("the notification server", lambda: subprocess.run(
            MOCK + ["--method", "org.freedesktop.Notifications.GetServerInformation"], capture_output=True).returncode == 0)

    def calls(self, method):
        """The arguments of each call of `method` so far, as gdbus prints them."""
        out = subprocess.run(MOCK + ["--method", "org.freedesktop.DBus.Mock.GetMethodCalls", method],
                             capture_output=True, text=True, check=True).stdout
        # "([(uint64 1795664162, [<'flourish'>, …]), …],)": one tuple per call.
        return [part for part in out.split("(uint64 ")[1:]]

    def invoke(self, notification_id, action):
        """The person clicks: the server says which action (GLib's key for a button, "default" for the body)."""
        subprocess.run(MOCK + ["--method", "org.freedesktop.DBus.Mock.EmitSignal", "org.freedesktop.Notifications",
                               "ActionInvoked", "us", f"[<uint32 {notification_id}>, <'{action}'>]"],
                       capture_output=True, check=True)

    def stop(self):
        self.process.terminate()
        self.process.wait()


class Scenario:
    """Folders of its own: journal, preferences, login item."""

    def __init__(self, name):
        self.home = os.path.join(WORK, "reminders", name)
        os.makedirs(self.home, exist_ok=True)
        self.environment = dict(os.environ, GDK_BACKEND="x11", HOME=self.home,
                                XDG_CONFIG_HOME=os.path.join(self.home, "config"), XDG_DATA_HOME=os.path.join(self.home, "data"))
        self.login_item = os.path.join(self.home, "config", "autostart", f"{APP_ID}.desktop")
        self.journal = os.path.join(self.home, "data", "flourish", "journal.sqlite")
        self.service = None

    def flourish(self, *arguments):
        return subprocess.run([BINARY, *arguments], env=self.environment, capture_output=True, text=True, stdin=subprocess.DEVNULL)

    def remind_since_yesterday(self, at):
        """Reminders on at `at`, as if set yesterday: a time passed today then reminds at once
        (as for a machine that was asleep or off at that time). Set today, it would wait for
        tomorrow."""
        done = self.flourish("--remind", at)
        if done.returncode != 0:
            raise Failure(f"--remind {at} failed: {done.stderr}")
        preferences = os.path.join(self.home, "config", "flourish", "preferences")
        with open(preferences) as file:
            lines = [line for line in file if not line.startswith("reminder-set-at=")]
        lines.append(f"reminder-set-at={time.time() - 86_400}\n")
        with open(preferences, "w") as file:
            file.writelines(lines)

    def import_today(self, title):
        """Imports an entry written now, from a terminal (`flourish --import`); whether it worked."""
        words = os.path.join(self.home, "today.json")
        now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.000Z")
        with open(words, "w") as file:
            json.dump({"format": "flourish-journal", "version": 1, "exported_at": now, "tags": [],
                       "entries": [{"uuid": "77777777-7777-4777-8777-777777777770", "title": title, "body": "",
                                    "mood": 1, "mood_title": "really good", "created_at": now, "tags": []}]}, file)
        return self.flourish("--import", words).returncode == 0

    def start_service(self):
        log = open(os.path.join(self.home, "service.log"), "a")
        self.service = subprocess.Popen([BINARY, "--gapplication-service"], env=self.environment, stdout=log, stderr=log)
        wait_for("the service on the session bus", lambda: "(true,)" in subprocess.run(
            ["gdbus", "call", "--session", "--dest", "org.freedesktop.DBus", "--object-path", "/org/freedesktop/DBus",
             "--method", "org.freedesktop.DBus.NameHasOwner", APP_ID], capture_output=True, text=True).stdout)

    def app(self):
        """The service's process on the accessibility bus, once it has a window."""
        def probe():
            for app in pyatspi.Registry.getDesktop(0):
                if app is not None and app.get_process_id() == self.service.pid and app.childCount > 0:
                    return app
            return None
        return wait_for("the Flourish window", probe, timeout=20)

    def stop(self):
        if self.service and self.service.poll() is None:
            self.service.terminate()
            self.service.wait()


def what_it_shows(scenario):
    """What the service's windows say (their labels' words, shown or not), for a failure's report."""
    for app in pyatspi.Registry.getDesktop(0):
        if app is not None and app.get_process_id() == scenario.service.pid:
            return [node.name for node in journey.descendants(app) if node.getRoleName() in ("frame", "dialog", "label") and node.name]
    return "no window on the accessibility bus"


@contextlib.contextmanager
def running(name):
    """A scenario and its notification server, both stopped after, whatever happened. A failure
    is reported while the service still runs: what its windows say, the screen, its log."""
    scenario, server = Scenario(name), NotificationServer()
    try:
        yield scenario, server
    except Exception:
        if scenario.service and scenario.service.poll() is None:
            try:
                print(f"  (the service's windows say: {what_it_shows(scenario)})", flush=True)
            except Exception as failure:
                print(f"  (its windows could not be read: {failure})", flush=True)
            print(f"  (screenshot: {journey.screenshot(f'reminders-{name}-failure.png')})", flush=True)
        log = os.path.join(scenario.home, "service.log")
        if os.path.exists(log):
            with open(log, errors="replace") as file:
                print(f"  (the service's log: {file.read()[-2000:]!r})", flush=True)
        raise
    finally:
        scenario.stop()
        server.stop()


def reminded(scenario, server):
    """The service started after a time set yesterday has passed today: it reminds at once."""
    scenario.remind_since_yesterday(minute(-1))
    scenario.start_service()
    return wait_for("the reminder", lambda: server.calls("Notify"))


def minute(offset=0):
    return (datetime.datetime.now() + datetime.timedelta(minutes=offset)).strftime("%H:%M")


def new_entry_form_shown(app):
    title = wait_for("the New Entry form's title field", lambda: find(app, "text", "Title"))
    return wait_for("the keyboard in the title field", lambda: journey.focused(title) and title)


def reminded_at_its_time_and_write_entry_opens_the_form():
    print("reminders: set a minute ahead, the reminder comes at its time; Write entry opens a New Entry form", flush=True)
    with running("at-its-time") as (scenario, server):
        # Just past a minute's start, so "a minute ahead" is never a second away.
        while datetime.datetime.now().second > 50:
            time.sleep(1)
        ahead = datetime.datetime.now() + datetime.timedelta(minutes=1)
        at, due = ahead.strftime("%H:%M"), ahead.replace(second=0, microsecond=0).timestamp()
        done = scenario.flourish("--remind", at)
        check(f"--remind {at} turns it on and says so ({done.stdout.strip()})",
              done.returncode == 0 and done.stdout.strip() == f"Daily reminder at {at}.")
        check("the login item is installed", os.path.isfile(scenario.login_item))
        with open(scenario.login_item) as file:
            item = file.read()
        check("it starts Flourish as a background service", "--gapplication-service\n" in item and "\nExec=" in item)
        check("it is a valid desktop file", subprocess.run(["desktop-file-validate", scenario.login_item]).returncode == 0)
        scenario.start_service()
        notify = wait_for("the reminder at its time", lambda: server.calls("Notify"), timeout=75)
        call = notify[0]
        # Not "nothing in the first seconds", which a slow start could push past its time: the
        # server stamps each call with the second it came ("(uint64 1795664162, …"), never before it.
        came = int(call.split(",", 1)[0])
        check(f"nothing before its time (it came {came - due:+.0f} s after {at})", came >= due)
        check("one notification, from Flourish", len(notify) == 1 and "<'flourish'>" in call)
        check("titled How are you today?", "<'How are you today?'>" in call)
        check("with a line under it", "<'A minute for your journal: choose a mood, write a line.'>" in call)
        check("with Write entry (also the click on it) and Later",
              "['default', '', 'app.reminder-write', 'Write entry', 'app.reminder-later', 'Later']" in call)
        check("with the app's icon", f"'desktop-entry': <'{APP_ID}'>" in call and f"<'{APP_ID}'>" in call)
        server.invoke(1, "app.reminder-write")
        app = scenario.app()
        check("Write entry opens the window on a New Entry form, the keyboard in its title", new_entry_form_shown(app) is not None)
        keys("ctrl+q")
        wait_for("the window to close", lambda: find(app, "text", "Title") is None)
        time.sleep(0.5)
        check("the service keeps running once the window is closed, for tomorrow's reminder", scenario.service.poll() is None)

        done = scenario.flourish("--remind", "off")
        check(f"--remind off turns it off ({done.stdout.strip()})", done.returncode == 0 and done.stdout.strip() == "Daily reminder off.")
        check("the login item goes", not os.path.exists(scenario.login_item))
        check("and the background service ends", wait_for("the service to end", lambda: scenario.service.poll() is not None) is not None)


def the_click_on_the_reminder_opens_the_form():
    print("reminders: a time already past today reminds at once; a click on the notification opens the form", flush=True)
    with running("click") as (scenario, server):
        calls = reminded(scenario, server)
        check("a service started after the time, the same day, reminds at once (as a machine waking from sleep)", len(calls) == 1)
        server.invoke(1, "default")
        check("a click on it opens the window on a New Entry form", new_entry_form_shown(scenario.app()) is not None)


def a_reminder_left_alone_is_withdrawn_once_today_is_written():
    print("reminders: a reminder nobody clicked is withdrawn once an entry for today is saved", flush=True)
    with running("withdrawn") as (scenario, server):
        reminded(scenario, server)
        # Opened from the menu: the launch is handed to the running service, one process.
        opened = subprocess.run([BINARY], env=scenario.environment, capture_output=True, timeout=30)
        check("opening Flourish joins the running service (one process)", opened.returncode == 0)
        app = scenario.app()
        new_entry_form_shown(app)
        type_text("Written after the reminder")
        journey.press(find(app, "push button", "Mood"))
        journey.press(wait_for("the mood popover", lambda: find(app, "push button", "okay")))
        wait_for("the popover to close", lambda: find(app, "push button", "the best") is None)
        keys("ctrl+Return")
        wait_for("the saved dialog", lambda: find(app, "label", "Entry Saved"))
        keys("Return")
        close = wait_for("the withdrawal", lambda: server.calls("CloseNotification"))
        check("the reminder on screen is withdrawn", len(close) == 1 and "<1>" in close[0])
        check("and no second one comes", len(server.calls("Notify")) == 1)


def an_entry_written_elsewhere_withdraws_it_too():
    print("reminders: an entry for today from a terminal, no window open, withdraws the reminder", flush=True)
    with running("imported") as (scenario, server):
        reminded(scenario, server)
        check("an entry for today comes in from a terminal", scenario.import_today("From a terminal"))
        close = wait_for("the withdrawal", lambda: server.calls("CloseNotification"), timeout=15)
        check("the reminder on screen is withdrawn, with no window open", len(close) == 1)


def later_puts_it_off_an_hour():
    print("reminders: Later puts the reminder off an hour", flush=True)
    with running("later") as (scenario, server):
        reminded(scenario, server)
        pressed = time.time()
        server.invoke(1, "app.reminder-later")
        preferences = os.path.join(scenario.home, "config", "flourish", "preferences")

        def later():
            with open(preferences) as file:
                values = dict(line.strip().split("=", 1) for line in file if "=" in line)
            return float(values["reminder-later"]) if values.get("reminder-later") else None
        if time.localtime(pressed + 3_600).tm_yday != time.localtime(pressed).tm_yday:
            # Late at night an hour on is tomorrow, and Later lapses with its day (ReminderRules).
            time.sleep(2)
            check("late at night Later lapses: an hour on is tomorrow", later() is None)
        else:
            at = wait_for("Later to be remembered", later)
            check(f"it comes again an hour on ({at - pressed:.0f} s)", 3_595 <= at - pressed <= 3_610)
        time.sleep(2)
        check("not before", len(server.calls("Notify")) == 1)
        check("and no window opened for it", find(pyatspi.Registry.getDesktop(0), "text", "Title") is None)


def a_time_chosen_after_it_passed_waits_for_tomorrow():
    print("reminders: a time chosen after it has passed today does not remind at once", flush=True)
    with running("chosen-late") as (scenario, server):
        scenario.flourish("--remind", minute(-1))
        scenario.start_service()
        time.sleep(4)
        check("no notification today for a time already past when it was chosen", server.calls("Notify") == [])


def no_reminder_when_today_is_written():
    print("reminders: with an entry for today, no notification at all; a bad time changes nothing", flush=True)
    with running("written") as (scenario, server):
        check("an entry for today is in the journal", scenario.import_today("Already written"))
        for bad in ["25:00", "8pm"]:
            refused = scenario.flourish("--remind", bad)
            check(f"--remind {bad} is refused with a message ({refused.stderr.splitlines()[0] if refused.stderr else ''})",
                  refused.returncode == 2 and bad in refused.stderr)
        check("and nothing was set", not os.path.exists(scenario.login_item)
              and not os.path.exists(os.path.join(scenario.home, "config", "flourish", "preferences")))
        scenario.remind_since_yesterday(minute(-1))
        scenario.start_service()
        time.sleep(4)
        check("no notification", server.calls("Notify") == [])


def memories_in_the_reminder_only_when_asked_and_never_locked():
    print("reminders: with memories asked for, the oldest memory's title (never its words, never a locked journal's)", flush=True)
    today = datetime.date.today()
    years = [4, 8] if (today.month, today.day) == (2, 29) else [1, 3]
    line = "A minute for your journal: choose a mood, write a line."

    def with_memories(scenario):
        entries = []
        for ago, title in zip(years, ["Recent memory", "Oldest memory"]):
            when = datetime.datetime(today.year - ago, today.month, today.day, 9).astimezone(datetime.timezone.utc)
            entries.append({"uuid": f"77777777-7777-4777-8777-00000000000{ago}", "title": title, "body": "words kept inside",
                            "mood": 1, "mood_title": "really good", "created_at": when.strftime("%Y-%m-%dT%H:%M:%S.000Z"), "tags": []})
        words = os.path.join(scenario.home, "memories.json")
        with open(words, "w") as file:
            json.dump({"format": "flourish-journal", "version": 1, "exported_at": "2026-11-20T10:00:00.000Z", "tags": [],
                       "entries": entries}, file)
        return scenario.flourish("--import", words).returncode == 0

    def ask_for_memories(scenario):
        with open(os.path.join(scenario.home, "config", "flourish", "preferences"), "a") as file:
            file.write("reminder-memories=true\n")

    with running("memories-off") as (scenario, server):
        check("entries of this day in earlier years are in the journal", with_memories(scenario))
        call = reminded(scenario, server)[0]
        check("not asked for, the reminder says its line alone", f"<'{line}'>" in call and "memory" not in call)
    with running("memories-on") as (scenario, server):
        with_memories(scenario)
        scenario.remind_since_yesterday(minute(-1))
        ask_for_memories(scenario)
        scenario.start_service()
        call = wait_for("the reminder", lambda: server.calls("Notify"))[0]
        check("asked for, it names the oldest memory under its line",
              f"<'{line}\\nOn this day, {years[1]} years ago: Oldest memory'>" in call)
        check("by its title alone, never the entry's words", "words kept inside" not in call and "Recent memory" not in call)
    with running("memories-locked") as (scenario, server):
        with_memories(scenario)
        locked = subprocess.run([BINARY, "--encrypt"], env=scenario.environment, capture_output=True, text=True,
                                input="a passphrase for the reminder's journal\n")
        check("the journal is locked", locked.returncode == 0)
        scenario.remind_since_yesterday(minute(-1))
        ask_for_memories(scenario)
        scenario.start_service()
        call = wait_for("the reminder", lambda: server.calls("Notify"))[0]
        check("a locked journal's reminder names no memory", f"<'{line}'>" in call and "memory" not in call)


def main():
    # Clear of midnight: the scenarios choose times a minute either side of now.
    while datetime.datetime.now().strftime("%H:%M") >= "23:57" or datetime.datetime.now().strftime("%H:%M") < "00:02":
        time.sleep(10)
    journeys = [reminded_at_its_time_and_write_entry_opens_the_form, the_click_on_the_reminder_opens_the_form,
                a_reminder_left_alone_is_withdrawn_once_today_is_written, an_entry_written_elsewhere_withdraws_it_too,
                later_puts_it_off_an_hour,
                a_time_chosen_after_it_passed_waits_for_tomorrow, no_reminder_when_today_is_written,
                memories_in_the_reminder_only_when_asked_and_never_locked]
    return journey.run_journeys(journeys, "reminders", f"folders: {os.path.join(WORK, 'reminders')}")


if __name__ == "__main__":
    sys.exit(main())
