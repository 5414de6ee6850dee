/// The words a transcript adds to what was said: the label of what is seen, and the page's
/// controls. They are in the transcript's language where we have them (English, French, Spanish,
/// German, Italian, Portuguese, Dutch), else in English, and the page then marks them
/// `lang="en"` so that a screen reader reading a Czech page says them as English words.
struct TranscriptWords: Sendable {
    /// The language of these words (a BCP 47 primary subtag).
    let language: String
    /// The label of a description of what is seen.
    let seen: String
    /// The label of the checkbox that scrolls the text along with an audio or a video player.
    let followAudio, followVideo: String
    /// The label of the search box.
    let search: String
    /// How many paragraphs match: one, several (`{n}` the count), and the one shown (`{i}` of `{n}`).
    let oneParagraph, paragraphs, paragraphOf: String
    /// Whether 0 takes the singular (French, Portuguese: "0 paragraphe").
    let zeroIsSingular: Bool

    /// English, the words used when the language has none of its own.
    static let english = TranscriptWords(
        language: "en", seen: "Seen", followAudio: "Scroll to follow the audio", followVideo: "Scroll to follow the video",
        search: "Search the transcript", oneParagraph: "1 paragraph", paragraphs: "{n} paragraphs",
        paragraphOf: "{i} of {n} paragraphs", zeroIsSingular: false)

    static let all: [TranscriptWords] = [
        english,
        TranscriptWords(
            language: "fr", seen: "À l’écran", followAudio: "Faire défiler avec l’audio", followVideo: "Faire défiler avec la vidéo",
            search: "Rechercher dans la transcription", oneParagraph: "{n} paragraphe", paragraphs: "{n} paragraphes",
            paragraphOf: "{i} sur {n} paragraphes", zeroIsSingular: true),
        TranscriptWords(
            language: "es", seen: "En pantalla", followAudio: "Desplazar siguiendo el audio", followVideo: "Desplazar siguiendo el vídeo",
            search: "Buscar en la transcripción", oneParagraph: "1 párrafo", paragraphs: "{n} párrafos",
            paragraphOf: "{i} de {n} párrafos", zeroIsSingular: false),
        TranscriptWords(
            language: "de", seen: "Im Bild", followAudio: "Beim Abspielen mitscrollen", followVideo: "Beim Abspielen mitscrollen",
            search: "Transkript durchsuchen", oneParagraph: "1 Absatz", paragraphs: "{n} Absätze",
            paragraphOf: "{i} von {n} Absätzen", zeroIsSingular: false),
        TranscriptWords(
            language: "it", seen: "Sullo schermo", followAudio: "Scorri seguendo l’audio", followVideo: "Scorri seguendo il video",
            search: "Cerca nella trascrizione", oneParagraph: "1 paragrafo", paragraphs: "{n} paragrafi",
            paragraphOf: "{i} di {n} paragrafi", zeroIsSingular: false),
        TranscriptWords(
            language: "pt", seen: "Na tela", followAudio: "Rolar acompanhando o áudio", followVideo: "Rolar acompanhando o vídeo",
            search: "Pesquisar na transcrição", oneParagraph: "{n} parágrafo", paragraphs: "{n} parágrafos",
            paragraphOf: "{i} de {n} parágrafos", zeroIsSingular: true),
        TranscriptWords(
            language: "nl", seen: "In beeld", followAudio: "Meescrollen met de audio", followVideo: "Meescrollen met de video",
            search: "Zoeken in het transcript", oneParagraph: "1 alinea", paragraphs: "{n} alinea’s",
            paragraphOf: "{i} van {n} alinea’s", zeroIsSingular: false),
    ]

    /// The words for a transcript in `language` (a BCP 47 tag such as `fr-CA`; `nil`: English).
    static func `for`(_ language: String?) -> TranscriptWords {
        let primary = primarySubtag(of: language ?? "en")
        return all.first { $0.language == primary } ?? english
    }

    /// `fr` of `fr-CA` or `FR_ca`, lower-cased.
    static func primarySubtag(of tag: String) -> String {
        String(tag.split(whereSeparator: { $0 == "-" || $0 == "_" }).first ?? "").lowercased()
    }

    /// `lang="en"` (with a leading space) when these words are not in `language`, else nothing.
    func languageAttribute(within language: String) -> String {
        Self.primarySubtag(of: language) == self.language ? "" : " lang=\"\(self.language)\""
    }
}
