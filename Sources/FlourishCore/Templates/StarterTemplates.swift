/// The three templates a journal starts with, in the language Flourish speaks when it makes
/// them. Fixed uuids: every machine that makes them makes the same three, so sync keeps three,
/// not three per machine.
enum StarterTemplates {
    struct Starter {
        let uuid: String
        let name: String
        let title: String
        let body: String
    }

    static var all: [Starter] {
        [
            // Translators: {{weekday}}, {{date}} and {{time}} stay as they are: Flourish fills them in.
            Starter(uuid: "5f1c2a9e-3b7d-4e61-9a0c-000000000001", name: tr("Three good things"), title: tr("Three good things"),
                    body: tr("{{weekday}}, {{date}}\n\n1. \n2. \n3. \n\nWhy they went well: ")),
            // Translators: keep {{date}}, and each "## " (a heading's mark) at the start of its line.
            Starter(uuid: "5f1c2a9e-3b7d-4e61-9a0c-000000000002", name: tr("Evening review"), title: tr("Evening review, {{date}}"),
                    body: tr("## What happened today\n\n\n## What I am grateful for\n\n\n## What I would do differently\n\n")),
            // Translators: keep {{date}}, each "## " at the start of its line and the "- [ ] " of the task.
            Starter(uuid: "5f1c2a9e-3b7d-4e61-9a0c-000000000003", name: tr("Weekly review"), title: tr("Week to {{date}}"),
                    body: tr("## The best of this week\n\n\n## What was hard\n\n\n## What I learned\n\n\n## Next week I want to\n\n- [ ] \n")),
        ]
    }
}
