// Tentacles value-proposition sessions (in progress).
