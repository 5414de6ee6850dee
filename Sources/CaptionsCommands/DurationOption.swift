import ArgumentParser
import CaptionsCore

/// Parses a non-negative duration option such as `--pause 2s`; a usage error (exit 64) otherwise.
func nonNegativeDuration(_ text: String, option: String) throws -> MediaTime {
    guard let time = MediaTime(parsingDuration: text), !time.isNegative else {
        throw ValidationError("\(option) '\(text)' is not a duration such as 2s, 250ms or 00:00:01.500")
    }
    return time
}
