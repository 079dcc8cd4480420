package index

import (
	"context"
	"runtime"

	"github.com/canon-md/canon/index/config"
	"github.com/canon-md/canon/index/markdown"
	"github.com/canon-md/canon/index/resolve"
	"github.com/canon-md/canon/index/scan"
)

// Loaded is one file read from the working tree: hashed, and parsed unless it
// had to be skipped.
type Loaded struct {
	scan.FileInfo
	OID string // git blob id of the content
	// Sidecar is the git blob id of the sidecar whose fields the
	// document took (config.Sidecars: kep.yaml beside a README.md), ""
	// for none: a sidecar changed is a document changed (Stamp).
	Sidecar string
	Skip    string             // why the file is not a document ("" when it is)
	Doc     *markdown.Document // nil when skipped
	rows    *docRows           // Doc as stored, prepared where it was parsed
}

// Loader reads and parses files for one configuration.
type Loader struct {
	Root string
	Cfg  *config.Config
	opts markdown.Options
}

// NewLoader prepares a loader for the worktree at root.
func NewLoader(root string, cfg *config.Config) *Loader {
	return &Loader{Root: root, Cfg: cfg, opts: markdown.Options{Edges: cfg.Edges, Kinds: cfg.DocKinds(), TextFields: cfg.Frontmatter.TextFields, StateField: cfg.States.Field}}
}

// Load reads one file (scan.Read) and parses it. It never fails: a file
// that cannot be a document comes back with Skip set, and one that
// vanished comes back nil.
func (l *Loader) Load(fi scan.FileInfo) *Loaded {
	f, ok := scan.Read(l.Root, l.Cfg, fi)
	switch {
	case !ok:
		return nil
	case f.Skip != "":
		return &Loaded{FileInfo: fi, OID: f.OID, Skip: f.Skip}
	}
	side, problem := l.readSidecar(fi.Path)
	out := l.fromContent(fi, f.Content, side)
	if side != nil {
		out.Sidecar = side.oid
	}
	if out.Doc != nil && problem != "" {
		out.Doc.Problems = append(out.Doc.Problems, markdown.Problem{Line: 1, Col: 1, Rule: markdown.RuleFrontmatter, Severity: markdown.Warning, Message: problem})
	}
	return out
}

// Stamp is what tells this version of a file from another: its blob id,
// and its sidecar's when it took one's fields (as Store's stored stamps
// read it).
func (l *Loaded) Stamp() string {
	if l.Sidecar == "" {
		return l.OID
	}
	return l.OID + "+" + l.Sidecar
}

// FromContent parses content given rather than read: a staged blob, which
// canon check validates before it is committed.
func (l *Loader) FromContent(fi scan.FileInfo, content []byte) *Loaded {
	return l.fromContent(fi, content, nil)
}

func (l *Loader) fromContent(fi scan.FileInfo, content []byte, side *sidecarRead) *Loaded {
	out := l.fields(fi, content, side)
	if out.Doc != nil {
		out.rows = prepareRows(fi.Path, out.Doc, content, resolve.PlannerOf(l.Cfg))
	}
	return out
}

// Fields parses content as FromContent does, without the rows the index
// would write (chunks, links): for a caller that keeps only the
// document's fields, such as the overlay of another ref.
func (l *Loader) Fields(fi scan.FileInfo, content []byte) *Loaded {
	return l.fields(fi, content, nil)
}

func (l *Loader) fields(fi scan.FileInfo, content []byte, side *sidecarRead) *Loaded {
	out := &Loaded{FileInfo: fi}
	out.Size = int64(len(content))
	out.OID = scan.BlobOID(content)
	if out.Size > int64(l.Cfg.MaxFileSize) {
		out.Skip = l.OverSizeCap(out.Size)
		return out
	}
	if reason := scan.Unreadable(content); reason != "" {
		out.Skip = reason
		return out
	}
	var sc *markdown.Sidecar
	if side != nil {
		sc = &side.Sidecar
	}
	out.Doc = markdown.ParseWith(fi.Path, content, &l.opts, sc)
	return out
}

// At is the kind and state a document Fields parsed has at another path
// with the same content (markdown.PathFields.At), with this
// configuration's kinds: a blob that many paths name is parsed once.
func (l *Loader) At(f markdown.PathFields, path string) (kind, state string) {
	return f.At(path, l.opts.Kinds)
}

// Oversized is the document at fi (fi.Size its size) when its content,
// the blob oid, is over max_file_size and was not read.
func (l *Loader) Oversized(fi scan.FileInfo, oid string) *Loaded {
	return &Loaded{FileInfo: fi, OID: oid, Skip: l.OverSizeCap(fi.Size)}
}

// OverSizeCap is the skip reason of a document of size bytes, over
// max_file_size: "" when it is not over (scan.OverSizeCap).
func (l *Loader) OverSizeCap(size int64) string { return scan.OverSizeCap(l.Cfg, size) }

// LoadAll loads files on every core and hands them to fn in the order given,
// so what is written next does not depend on scheduling. It stops at the
// first error fn returns or when ctx is done. fn should be quick: the
// updates that use it only collect what is loaded.
func (l *Loader) LoadAll(ctx context.Context, files []scan.FileInfo, fn func(*Loaded) error) error {
	return l.loadAll(ctx, files, runtime.GOMAXPROCS(0), fn)
}

// loadAll is LoadAll on the given number of workers. A full build leaves one
// core to its consumer, which writes SQLite, the longest chain: a third busy
// thread on two cores only slows it.
func (l *Loader) loadAll(ctx context.Context, files []scan.FileInfo, workers int, fn func(*Loaded) error) error {
	return scan.InOrder(ctx, files, workers, l.Load, fn)
}
