import CaptionsCommands

CaptionsCommand.main()
