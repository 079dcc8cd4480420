package index

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strconv"

	"github.com/canon-md/canon/index/config"
	"github.com/canon-md/canon/index/human"
	"github.com/canon-md/canon/index/markdown"
	"github.com/canon-md/canon/index/safepath"
	"github.com/canon-md/canon/index/scan"
)

// sidecarRead is a sidecar read for a document: its fields and blob id.
type sidecarRead struct {
	markdown.Sidecar
	oid string
}

// readSidecar reads the first sidecar beside the document at rel that
// exists, within MaxSidecarBytes and the frontmatter's YAML bounds: nil
// when there is none. A sidecar that cannot be read or parsed gives no
// fields and a problem the document reports.
func (l *Loader) readSidecar(rel string) (*sidecarRead, string) {
	for i, p := range scan.SidecarsOf(l.Cfg, rel) {
		data, err := safepath.ReadFile(filepath.Join(l.Root, filepath.FromSlash(p)), config.MaxSidecarBytes, l.Root)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		name := human.Quote(path.Base(p))
		if err != nil {
			return nil, fmt.Sprintf("the %s beside it is not read (%v), so its fields are not this document's", name, err)
		}
		sc, problem := parseSidecar(l.Cfg.Sidecars[i], data, name)
		if i > 0 {
			sc.oid += "#" + strconv.Itoa(i) // which of them, as the overlays write it (gitsync's sideVersion)
		}
		return sc, problem
	}
	return nil, ""
}

// parseSidecar reads a sidecar's content (data, shown as name).
func parseSidecar(c config.Sidecar, data []byte, name string) (*sidecarRead, string) {
	out := &sidecarRead{oid: scan.BlobOID(data), Sidecar: markdown.Sidecar{IDField: c.ID, IDPrefix: c.Prefix}}
	if reason := scan.Unreadable(data); reason != "" {
		return out, fmt.Sprintf("the %s beside it %s, so its fields are not this document's", name, reason)
	}
	v, err := markdown.ParseSidecar(data)
	if err != nil {
		return out, fmt.Sprintf("the %s beside it does not parse: %v; its fields are not this document's", name, err)
	}
	out.Fields = v
	return out, ""
}

// FieldsBeside is Fields of a README whose i-th sidecar of config.Sidecars
// holds side (nil: none; empty: one over config.MaxSidecarBytes): the
// overlay of another ref, read from its blobs.
func (l *Loader) FieldsBeside(fi scan.FileInfo, content []byte, i int, side []byte) *Loaded {
	if side == nil || i >= len(l.Cfg.Sidecars) {
		return l.Fields(fi, content)
	}
	c := l.Cfg.Sidecars[i]
	sc, problem := parseSidecar(c, side, human.Quote(c.File))
	out := l.fields(fi, content, sc)
	if out.Doc != nil && problem != "" {
		out.Doc.Problems = append(out.Doc.Problems, markdown.Problem{Line: 1, Col: 1, Rule: markdown.RuleFrontmatter, Severity: markdown.Warning, Message: problem})
	}
	return out
}

// FromContentBeside is FromContent of a README whose i-th sidecar of
// config.Sidecars holds side (nil: none; empty: one over
// config.MaxSidecarBytes), with the rows the index would write and the
// sidecar's blob id, as Load reads one from the working tree: a staged
// README beside its staged sidecar, which canon check validates before
// the commit.
func (l *Loader) FromContentBeside(fi scan.FileInfo, content []byte, i int, side []byte) *Loaded {
	if side == nil || i >= len(l.Cfg.Sidecars) {
		return l.FromContent(fi, content)
	}
	c := l.Cfg.Sidecars[i]
	sc, problem := parseSidecar(c, side, human.Quote(c.File))
	if i > 0 {
		sc.oid += "#" + strconv.Itoa(i)
	}
	out := l.fromContent(fi, content, sc)
	out.Sidecar = sc.oid
	if out.Doc != nil && problem != "" {
		out.Doc.Problems = append(out.Doc.Problems, markdown.Problem{Line: 1, Col: 1, Rule: markdown.RuleFrontmatter, Severity: markdown.Warning, Message: problem})
	}
	return out
}

// FromContentPlanned is FromContent of a document as a write plans it
// (content), beside its sidecar as planned (planned, by path) or else as
// the working tree has it, as Load reads one: canon set's check of a
// README or a kep.yaml it is about to write.
func (l *Loader) FromContentPlanned(fi scan.FileInfo, content []byte, planned map[string][]byte) *Loaded {
	for i, p := range scan.SidecarsOf(l.Cfg, fi.Path) {
		if side, ok := planned[p]; ok {
			return l.FromContentBeside(fi, content, i, side)
		}
		if _, err := os.Lstat(filepath.Join(l.Root, filepath.FromSlash(p))); err == nil {
			break
		}
	}
	side, problem := l.readSidecar(fi.Path)
	out := l.fromContent(fi, content, side)
	if side != nil {
		out.Sidecar = side.oid
	}
	if out.Doc != nil && problem != "" {
		out.Doc.Problems = append(out.Doc.Problems, markdown.Problem{Line: 1, Col: 1, Rule: markdown.RuleFrontmatter, Severity: markdown.Warning, Message: problem})
	}
	return out
}

// StampOf is the stamp (Loaded.Stamp) of the document at rel whose own
// blob id is oid, beside its sidecar as the working tree has it: the
// sidecar's blob is read and hashed, not parsed. A command that must tell
// whether a file it did not walk is what the index read (a racy stat)
// compares it with the stored stamp.
func (l *Loader) StampOf(rel, oid string) string {
	for i, p := range scan.SidecarsOf(l.Cfg, rel) {
		data, err := safepath.ReadFile(filepath.Join(l.Root, filepath.FromSlash(p)), config.MaxSidecarBytes, l.Root)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return oid // as Load: a sidecar it cannot read gives no fields
		}
		side := scan.BlobOID(data)
		if i > 0 {
			side += "#" + strconv.Itoa(i)
		}
		return oid + "+" + side
	}
	return oid
}
