// Package learn reads a repository's documents as the index holds them and
// says which of canon's defaults its conventions contradict (ADR-0037):
// the parents each kind actually has, the id shapes, states, priorities,
// date fields and archive folders in use, and the tool that wrote the
// files with its own parsing rules and edge fields. canon init writes
// the result into the configuration's learned block, each value with the
// evidence for it.
//
// The rule it applies everywhere: a default the repository breaks in most
// of its documents yields to what the repository does; one it mostly
// keeps stays, and its exceptions are what canon check reports. A value
// used by fewer than one document in twenty (or by one document) is an
// exception, never a convention.
//
// It reads the index through index's typed reads over an index.Querier
// (index/internal/checkreads), running no SQL of its own, and the repository's own
// configuration files of other tools (bounded reads inside the root), and
// writes nothing. It sits beside check, above index and config.
package learn
