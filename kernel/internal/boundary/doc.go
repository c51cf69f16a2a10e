// Package boundary holds no code: its test checks that the packages of the
// kernel process (the dispatcher and gocl run) never link the engine, the
// interpreter or the symbol tables, which live in the engine process and
// are reached through kernel/cellio only (issue 19).
package boundary
