// Package config loads canon's configuration, .canon/config.yaml, and holds
// its defaults. It knows nothing of git, SQLite or the CLI.
//
// It owns every setting and its default: roots and exclusions, edges and
// kinds, namespaces and states, rules and severities, context weights,
// worksets and the watcher, and IndexHash, the fingerprint of the settings
// that shape the index (a change means a rebuild). It reads the
// configuration file and the process profile it names, and writes nothing.
//
// On the ladder cmd → usecase → hooks → gitsync, workset → graph →
// index, it is at the bottom with index: every package may import it, and
// it imports nothing of canon's.
package config
