import ReplayCLI

ReplayTool().main()
