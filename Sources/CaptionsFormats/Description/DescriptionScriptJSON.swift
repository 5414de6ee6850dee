import CaptionsCore
import FoundationEssentials

extension DescriptionScript {
    /// Reads a JSON script: an array (or `{"descriptions": [...]}`) of `{"text", "start", "end"}`,
    /// times optional, each a number of seconds or a string such as `"00:01:05.5"`.
    public init(json bytes: [UInt8]) throws(CaptionsError) {
        let items: [Item]
        do {
            let decoder = JSONDecoder()
            if let list = try? decoder.decode([Item].self, from: Data(bytes)) {
                items = list
            } else {
                items = try decoder.decode(Wrapper.self, from: Data(bytes)).descriptions
            }
        } catch {
            throw CaptionsError("describe.script.json", "not a description script: expected [{\"text\", \"start\", \"end\"}] (\(error))", at: .start)
        }
        var entries: [Entry] = []
        for (index, item) in items.enumerated() {
            let location = SourceLocation(line: 1, column: 1)
            func time(_ value: Time?, _ name: String) throws(CaptionsError) -> MediaTime? {
                guard let value else { return nil }
                let parsed: MediaTime? = switch value {
                case .seconds(let seconds): seconds.isFinite ? MediaTime(decimalSeconds: Substring(NumberFormatting.shortest(seconds))) : nil
                case .text(let text): MediaTime(parsingDuration: text)
                }
                guard let parsed, !parsed.isNegative else {
                    throw CaptionsError("describe.script.time", "[\(index)].\(name) is not a time in seconds or such as 00:01:05.5", at: location)
                }
                return parsed
            }
            let entry = Entry(text: item.text, start: try time(item.start, "start"), end: try time(item.end, "end"), location: location)
            if let start = entry.start, let end = entry.end, end <= start {
                throw CaptionsError("describe.script.end-before-start", "[\(index)]: the end is not after the start", at: location)
            }
            if !entry.text.isEmpty { entries.append(entry) }
        }
        self.init(entries: entries)
    }

    private struct Wrapper: Decodable {
        var descriptions: [Item]
    }

    private struct Item: Decodable {
        var text: String
        var start: Time?
        var end: Time?
    }

    private enum Time: Decodable {
        case seconds(Double)
        case text(String)

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let seconds = try? container.decode(Double.self) { self = .seconds(seconds) } else { self = .text(try container.decode(String.self)) }
        }
    }
}
