// Package merge is the three-way merge of one canonical document that git
// runs as a custom merge driver (canon merge-driver, docs/merge-driver.md,
// ADR-0041): the frontmatter field by field, append-only sections (the
// Worklog, and those the configuration names) as the union of the entries
// both sides added, and the rest of the body line by line through the
// merge the caller hands in (git merge-file, so that a real conflict shows
// the markers the user configured).
//
// It owns the rules of that merge and nothing else. It never re-serialises
// YAML: every line it keeps is the line one side wrote (promote's
// minimal-edit rule), so CRLF, a BOM and quoting survive. Whatever it
// cannot read (a frontmatter that does not parse, TOML, fields it cannot
// place, a side past its bounds) falls back to the line merge of the whole
// file, with the reason. Before a merge is reported, prove checks it
// against the three versions (ADR-0057): every line either side added to
// the body, every field's decoded value as the rules give it, every
// comment either side added to the frontmatter; on any doubt the whole
// file goes to the line merge too. It never changes or loses a value, a
// comment or a line silently, and its time is linear in the file.
//
// It is pure: it reads no file, writes none and runs no git; the merge
// driver (hooks) hands git the result, which writes it. It is therefore
// no caller of the edit engine (index/edit), which edits one document
// toward what a command asks and writes files: it takes from the engine
// only what a document's layout says, the field of the date of the last
// change (edit.UpdatedField) and the Worklog heading (edit.Worklog). On
// the ladder cmd → usecase → hooks → gitsync, workset → graph → index it
// sits with workset, imports nothing of it, and parses with
// index/markdown; the caller (hooks, the merge driver) joins it to git.
package merge
