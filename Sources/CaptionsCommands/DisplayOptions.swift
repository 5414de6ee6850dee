import ArgumentParser
import CaptionsFlash

/// The display Apple's Dim Flashing Lights model is tuned to, shared by `flashes` and `dim`.
struct DisplayOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "A named display for Apple's Dim Flashing Lights model: "
                + DimFlashingLights.Display.presets.map {
                    "\($0.name) (\(Int($0.display.peak)) cd/m², \(Int($0.display.area.rounded())) deg²)"
                }.joined(separator: ", ") + ".",
            valueName: "name"))
    var display: String?

    @Option(help: ArgumentHelp("The display's peak luminance in cd/m² for Apple's model (default 100).", valueName: "nits"))
    var displayPeak: Double?

    @Option(
        help: ArgumentHelp(
            "The picture's area in square degrees of visual angle for Apple's model (default 1265.625).",
            valueName: "deg2"))
    var displayArea: Double?

    /// The display chosen: a preset, with `--display-peak` and `--display-area` over it.
    func resolved() throws -> DimFlashingLights.Display {
        var chosen = DimFlashingLights.Display.standard
        if let display {
            guard let preset = DimFlashingLights.Display.preset(display) else {
                let names = DimFlashingLights.Display.presets.map(\.name).joined(separator: ", ")
                throw ValidationError("unknown display '\(display)': choose one of \(names) [usage.display]")
            }
            chosen = preset
        }
        if let displayPeak {
            guard displayPeak.isFinite, (1...10_000).contains(displayPeak) else {
                throw ValidationError("--display-peak must be between 1 and 10000 cd/m² [usage.displayPeak]")
            }
            chosen.peak = displayPeak
        }
        if let displayArea {
            guard displayArea.isFinite, (1...20_000).contains(displayArea) else {
                throw ValidationError("--display-area must be between 1 and 20000 square degrees [usage.displayArea]")
            }
            chosen.area = displayArea
        }
        return chosen
    }

    /// ``resolved()``, or the usage error printed to `io` and exit 64.
    func resolved(io: CommandIO) throws -> DimFlashingLights.Display {
        do {
            return try resolved()
        } catch let error as ValidationError {
            io.writeStandardError("error: \(error.message)\n")
            throw ExitCode(64)
        }
    }
}
