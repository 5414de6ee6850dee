import CaptionsCore
import CaptionsQuality
import Testing

@Suite struct ProfileTests {
    @Test(arguments: ["netflix", "bbc", "apple-itt", "cea608", "dcmp", "fcc", "itt"])
    func shippedProfilesLoad(_ name: String) throws {
        let profile = try ProfileCatalog.profile(named: name)
        #expect(!profile.name.isEmpty)
        #expect(profile.source?.isEmpty == false)
        #expect(profile.defaultFrameRate != nil)
    }

    @Test func netflixLimitsFollowTheLanguage() throws {
        let netflix = try ProfileCatalog.profile(named: "netflix")
        #expect(netflix.limits(forLanguage: "en").readingSpeed?.max == 20)
        #expect(netflix.limits(forLanguage: "en-GB").readingSpeed?.max == 20)
        #expect(netflix.limits(forLanguage: "ja").readingSpeed?.max == 4)
        #expect(netflix.limits(forLanguage: "ja").maxLineLength == 13)
        #expect(netflix.limits(forLanguage: "ja").maxLines == 2)
        #expect(netflix.limits(forLanguage: "fr").readingSpeed?.max == 17)
        #expect(netflix.limits(forLanguage: nil).maxLineLength == 42)
    }

    @Test func printedProfileReadsBackTheSame() throws {
        let text = try #require(ProfileCatalog.text(named: "bbc"))
        let decoded = try ProfileCatalog.decode(Array(text.utf8), source: "copy.json")
        #expect(decoded == (try ProfileCatalog.profile(named: "bbc")))
    }

    @Test func badProfilesSayWhatIsWrong() {
        #expect(throws: CaptionsError.self) { try ProfileCatalog.profile(named: "nope") }
        do {
            _ = try ProfileCatalog.decode(Array(#"{"name": "x", "limits": {"minGap": "two frames"}}"#.utf8), source: "my.json")
            Issue.record("accepted a bad duration")
        } catch {
            #expect(error.code == "check.profile.invalid")
            #expect(error.message.contains("my.json"))
            #expect(error.message.contains("minGap"))
        }
        do {
            _ = try ProfileCatalog.decode(Array(#"{"name": "x", "limits": {"maxLines": "2"}}"#.utf8), source: "my.json")
            Issue.record("accepted a string for a number")
        } catch {
            #expect(error.message.contains("maxLines should be a number"))
        }
    }

    @Test func durationsInFramesAndSeconds() throws {
        let rate = try #require(FrameRate(parsing: "23.976"))
        #expect(ProfileDuration("2f")?.time(at: rate) == MediaTime(value: 2002, timescale: 24000))
        #expect(ProfileDuration("5/6s")?.time(at: rate) == MediaTime(value: 5, timescale: 6))
        #expect(ProfileDuration("1.5s")?.time(at: rate) == MediaTime(milliseconds: 1500))
        #expect(ProfileDuration("250ms")?.time(at: rate) == MediaTime(milliseconds: 250))
        #expect(ProfileDuration("-2f") == nil)
        #expect(ProfileDuration("two") == nil)
    }
}
