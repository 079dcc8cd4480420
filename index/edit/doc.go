// Package edit is the one engine through which canon writes canonical
// Markdown (ADR-0060): promote, id rename and id fix, check --fix, and
// whatever edits a document next. It writes as a careful person would,
// by whole lines, and never re-serialises anyone's YAML.
//
// It owns three things:
//
//   - The edits of one document's bytes, pure functions: SetField (a
//     frontmatter scalar), SetUpdated (the date of the last change, in the
//     document's own field and layout), AddToList and RemoveFromList (an
//     item of a block or flow list), AppendToSection (a line at the end of
//     a named section, the section created when missing), Replace (text at
//     a line and column: a link's target, a reference), and ReplaceID (an
//     id where it stands as a word, in a file name). Each changes or
//     inserts whole lines and leaves every other byte as it was (the BOM,
//     CRLF, quotes, comments), writes values as markdown.Scalar does (as
//     YAML or TOML needs them quoted), refuses a value that is not one
//     line of plain text (ADR-0033: Plain), and reads its result again:
//     an edit whose result no longer parses, or reads another value than
//     the one asked for, or changes another field or heading, is refused
//     with the reason and the content is left as it was.
//   - A change set over several files (Set): files opened once, edited,
//     created, renamed and removed, each with its content before and
//     after; the working tree as the set leaves it, for edits planned
//     after others; Touch, the updated: field of every file it edits; and
//     Diff, the unified diff a dry run prints.
//   - Its write (Apply): every path proven writable (Writable: a document
//     inside the roots, or any Markdown file for a rename's links, never
//     through a link), the files written all or none through the journal
//     (safepath.Journal, ADR-0058) with what the command records once they
//     are (a rename's moves in git's index; a caller's Part, such as a
//     promote's findings), and the index brought to them; and the
//     recovery of a write a killed command left (Finish, Pending,
//     Recovered).
//
// What it must not do: decide what to write (where a finding goes, which
// references an id rename rewrites, which fixes a check finding carries:
// that is its callers'), open a database, or run git (git's index is told
// of a move through the Repo a caller hands in, a *gitsync.Session).
//
// On the ladder cmd → usecase → hooks → gitsync, workset → graph → index
// it sits at the bottom with index's other sub-packages: it imports index
// (Scope: which files are documents), index/markdown, index/safepath,
// index/human and index/lazyre, and nothing above.
package edit
