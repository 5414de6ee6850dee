import CaptionsCommands

#if os(Linux)
import CCaptionsMalloc

// Grow the heap 32 MiB at a time (address space only; pages are used as they are touched). A large
// caption file allocates a few hundred thousand small objects per thread, and glibc's default step
// of 128 KiB turns that into thousands of brk and mprotect calls: about 8 % of a 100,000-cue
// conversion.
mallopt(M_TOP_PAD, 32 << 20)
#endif

CaptionsCommand.runCommandLine()
