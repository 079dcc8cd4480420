package sqlstore

import (
	"fmt"
	"strings"

	"github.com/canon-md/canon/index/human"
	"github.com/canon-md/canon/index/markdown"
)

// The values more than one table family reads. index names each by an
// alias (index.DocID, index.DocRef, ...): the store's callers see them
// there.

// DocID is a document's row id. It joins rows within one read of one
// database and is never shown: outputs name documents by node key.
type DocID int64

// ChunkID is a section's row id (its chunks_fts rowid), under DocID's rules.
type ChunkID int64

// Node is a document with its row id.
type Node struct {
	Doc DocID
	DocRef
}

// DocEdge is a resolved link between two different documents: Src names
// Dst.
type DocEdge struct {
	Src, Dst DocID
	Type     string
}

// DocRef names a document the way every output does.
type DocRef struct {
	Key   string `json:"key"`   // canonical node key
	ID    string `json:"id"`    // display id: the id, else the file stem
	Path  string `json:"path"`  // repo-relative
	Kind  string `json:"kind"`  // epic, task, adr, doc, ...
	Title string `json:"title"` // title, else the file stem
	State string `json:"state,omitempty"`
}

// NewDocRef is the DocRef of a row: the file stem stands in for a
// missing id or title.
func NewDocRef(key, ident, path, kind, title, state string) DocRef {
	if ident == "" {
		ident = markdown.DisplayStem(path)
	}
	if title == "" {
		title = markdown.DisplayStem(path)
	}
	return DocRef{Key: key, ID: ident, Path: path, Kind: kind, Title: title, State: state}
}

// StoredStamp is what Loaded.Stamp was of a stored document. A README's
// version beside a sidecar is the same stamp in the overlays of other
// refs (gitsync reads their blobs so), so that HEAD's document and a
// ref's compare by both.
const StoredStamp = `oid || CASE WHEN sidecar = '' THEN '' ELSE '+' || sidecar END`

// DocRefCols are the columns of docs d that ScanDocRef reads.
const DocRefCols = `d.key, d.ident, d.path, d.kind, d.title, d.state`

// ScanDocRef reads a row of DocRefCols, then extra.
func ScanDocRef(sc interface{ Scan(...any) error }, extra ...any) (DocRef, error) {
	var key, ident, path, kind, title, state string
	dest := append([]any{&key, &ident, &path, &kind, &title, &state}, extra...)
	if err := sc.Scan(dest...); err != nil {
		return DocRef{}, err
	}
	return NewDocRef(key, ident, path, kind, title, state), nil
}

// Problem is one stored or derived problem.
type Problem struct {
	Path     string `json:"path"`
	Line     int    `json:"line"`
	Col      int    `json:"col"`
	Severity string `json:"severity"`
	Rule     string `json:"rule"`
	Message  string `json:"message"`
	// Target is what the problem is about within its document (a field, a
	// link as written, an id), and Doc the document's key: with Rule they
	// say whether two states of a repository have the same problem, however
	// its line or message moved (canon check's new-only mode).
	Target string `json:"-"`
	Doc    string `json:"-"`
	// Fix, when set, is the edit that resolves the problem: mechanical and
	// with exactly one answer (canon check --fix).
	Fix *Fix `json:"fix,omitempty"`
}

// Fix is a minimal edit of one file: on Line, the first Old at or after
// column Col becomes New; or Item is appended to the frontmatter list
// Field (dotted for nesting, e.g. links.blocked_by).
type Fix struct {
	Path  string `json:"path"`
	Line  int    `json:"line,omitempty"`
	Col   int    `json:"col,omitempty"`
	Old   string `json:"old,omitempty"`
	New   string `json:"new,omitempty"`
	Field string `json:"field,omitempty"`
	Item  string `json:"item,omitempty"`
}

// String is the problem as one line: path:line:col: severity rule: message.
func (p Problem) String() string {
	return fmt.Sprintf("%s:%d:%d: %s %s: %s", human.QuotePath(p.Path), p.Line, p.Col, p.Severity, p.Rule, lineBreaks.Replace(p.Message))
}

// lineBreaks keeps a message on its line (a path in it may hold one).
var lineBreaks = strings.NewReplacer("\n", `\n`, "\r", `\r`)

// ContentTables are the derived tables, dropped and recreated by a full
// build. meta survives.
var ContentTables = []string{"ref_blobs", "trunk_docs", "ref_docs", "refs", "links", "aliases", "chunks", "chunks_fts", "problems", "skipped", "docs"}
