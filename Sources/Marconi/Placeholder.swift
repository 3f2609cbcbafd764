// The Marconi player state machine (in progress).
