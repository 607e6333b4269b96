import Foundation

/// A template as the JSON export lists it at the top, after the measures: its identity, name,
/// words (placeholders as written), and what it prefills, its measure values by the measures'
/// names (as the entries give theirs).
public struct ExportedTemplate: Codable, Equatable, Sendable {
    public var uuid: String
    public var name: String
    public var title: String
    public var body: String
    /// 0 (the best) to 5 (the worst); absent for none.
    public var mood: Int?
    public var tags: [String]
    public var measures: [String: Double]?
    /// Present, and true, for the template every new entry starts from.
    public var isDefault: Bool?

    enum CodingKeys: String, CodingKey {
        case uuid, name, title, body, mood, tags, measures
        case isDefault = "default"
    }

    init(_ template: EntryTemplate, measures: [Measure]) {
        uuid = template.uuid
        name = template.name
        title = template.definition.title
        body = template.definition.body
        mood = template.definition.mood?.rawValue
        tags = template.definition.tags
        var values: [String: Double] = [:]
        for measure in measures { if let value = template.definition.measures[measure.uuid] { values[measure.name] = value } }
        self.measures = values.isEmpty ? nil : values
        isDefault = template.isDefault ? true : nil
    }

    /// The template as an import brings it, or nil when it cannot be one (no name, a mood out of range).
    var imported: ImportedTemplate? {
        let mood = mood.flatMap(Mood.init(rawValue:))
        guard self.mood == nil || mood != nil, !uuid.trimmingCharacters(in: .whitespaces).isEmpty, uuid.count <= 100,
              case .success(let definition) = TemplateDefinition(name: name, title: title, body: body, mood: mood,
                                                                 tags: tags).validated()
        else { return nil }
        return ImportedTemplate(uuid: uuid, definition: definition, measuresByName: measures ?? [:], isDefault: isDefault == true)
    }
}

/// A template a Flourish export brings: added on import unless the journal has one of its uuid.
/// Its measure values name the measures, matched as the entries' are.
public struct ImportedTemplate: Sendable, Equatable {
    public var uuid: String
    public var definition: TemplateDefinition
    public var measuresByName: [String: Double]
    public var isDefault: Bool
}
