package check

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"

	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/config"
	"github.com/canon-md/canon/index/internal/checkreads"
	"github.com/canon-md/canon/index/lazyre"
	"github.com/canon-md/canon/index/markdown"
	"github.com/canon-md/canon/index/scan"
)

// Finding is one rule violation at a position: the same shape, and the same
// order, as the index's problems.
type Finding = index.Problem

// Tree answers which paths exist in the tree git records (the staged tree in
// pre-commit, HEAD in CI).
type Tree interface {
	// Lookup reports for each path whether it exists, exactly; for one that
	// does not, a path that does and differs only in case ("" if none). A
	// folder exists when a file lies under it.
	Lookup(ctx context.Context, paths []string) (exists map[string]bool, folded map[string]string, err error)
	// OnDisk reports whether the path exists in the working tree.
	OnDisk(path string) bool
	// Submodules lists the paths of the repository's submodules: canon
	// cannot look inside them.
	Submodules(ctx context.Context) ([]string, error)
	// Sparse reports a sparse checkout: documents outside it are in git
	// but not in the working tree, so not in the index.
	Sparse(ctx context.Context) bool
}

// Input says what to check.
type Input struct {
	Cfg *config.Config
	// Docs are the documents checked by every rule; nil means all.
	Docs []int64
	// LinksOnly are documents whose links alone are checked: others whose
	// references a change may have broken.
	LinksOnly []int64
	// Skipped are paths of skipped files to report (their problems have no
	// document).
	Skipped []string
	Tree    Tree
	// WikiLinksWork says whether the repository uses wiki-links (one of
	// them resolves) when the caller knows better than the state checked,
	// as a commit that deletes the one note they all link to; nil: the
	// checked state decides. Where none works, wiki-link is a warning.
	WikiLinksWork *bool
	// ReadSidecar reads the sidecar beside the README at a path (ADR-0084)
	// as the checked state has it: its path and content, within
	// config.MaxSidecarBytes; "" for none. A finding about a field the
	// sidecar holds names the field's line there. nil: such a finding
	// stays at the top of its document.
	ReadSidecar func(readme string) (path string, data []byte)
}

// doc is a checked document as the rules need it.
type doc struct {
	id                          int64
	path, key, ident, uid, kind string
	typ                         string
	fm                          fields
	pos                         positions
	disables                    []markdown.Disable
	linksOnly                   bool
	identLine, uidLine          int
	displayID                   string
	title                       string // frontmatter title, else the first level-1 heading
	state                       string // frontmatter state, else a decision record's written status
}

type checker struct {
	ctx      context.Context
	q        index.Querier
	in       Input
	docs     []*doc
	byID     map[int64]*doc
	findings []Finding
	// fieldOf is, per finding, the field and value it is about when it
	// has no line of its document (beside).
	fieldOf []fieldRef
	// disables of documents outside the checked set, loaded when a finding
	// lands in one (duplicate ids are reported at every location).
	otherDisables map[string][]markdown.Disable
	patterns      map[string]*regexp.Regexp
	// inverse holds, when many documents are checked, every resolved
	// blocks/blocked_by edge, loaded at once.
	inverse map[index.DocEdge]bool
	// kano is whether any indexed document has a Kano-shaped id: 0 not
	// asked yet, 1 yes, -1 no (follows).
	kano int
	// isSparse and wikiUsed are the same for a sparse checkout (sparse)
	// and for wiki-links that resolve (wikiLinksWork).
	isSparse, wikiUsed int
	// titles says, per lower-cased value, whether a document is titled so
	// (titled).
	titles map[string]bool
}

// Run checks and returns the findings, sorted, with severities from the
// configuration and inline opt-outs applied.
func Run(ctx context.Context, q index.Querier, in Input) ([]Finding, error) {
	c := &checker{ctx: ctx, q: q, in: in, byID: map[int64]*doc{}, otherDisables: map[string][]markdown.Disable{}}
	if err := c.load(); err != nil {
		return nil, err
	}
	steps := []func() error{c.storedProblems, c.fields, c.duplicates, c.links, c.groupCycles}
	for _, step := range steps {
		if err := step(); err != nil {
			return nil, err
		}
	}
	return c.finish()
}

func (c *checker) load() error {
	linksOnly := map[int64]bool{}
	for _, id := range c.in.LinksOnly {
		linksOnly[id] = true
	}
	for _, id := range c.in.Docs {
		delete(linksOnly, id)
	}
	add := func(r checkreads.CheckDoc) error {
		d := &doc{id: int64(r.ID), path: r.Path, key: r.Key, ident: r.Ident, identLine: r.IdentLine, uid: r.UID, uidLine: r.UIDLine, kind: r.Kind, typ: r.Type, title: r.Title, state: r.State}
		// One document whose stored data cannot be read is an error on
		// that document, never a failure of the whole check: a pre-commit
		// hook that fails lets everything through.
		for _, part := range []struct {
			what   string
			raw    string
			decode func(string) error
		}{
			{"frontmatter", r.FM, func(s string) (err error) { d.fm, err = decodeObject(s); return err }},
			{"field positions", r.FieldPos, func(s string) (err error) { d.pos, err = decodePositions(s); return err }},
			{"inline opt-outs", r.Disables, func(s string) error { return json.Unmarshal([]byte(s), &d.disables) }},
		} {
			if part.raw == "" {
				continue
			}
			if err := part.decode(part.raw); err != nil {
				c.add(d.path, 1, 1, markdown.RuleYAMLSyntax, part.what, fmt.Sprintf("canon cannot read the %s it stored for this document (%v); run canon index --full, and report it if it stays", part.what, err))
			}
		}
		d.linksOnly = linksOnly[d.id]
		d.displayID = d.ident
		if d.displayID == "" {
			d.displayID = markdown.DisplayStem(d.path)
		}
		c.docs = append(c.docs, d)
		c.byID[d.id] = d
		return nil
	}
	if c.in.Docs == nil && c.in.LinksOnly == nil {
		return checkreads.EachCheckDoc(c.ctx, c.q, add)
	}
	docs, err := checkreads.CheckDocs(c.ctx, c.q, docIDs(append(append([]int64{}, c.in.Docs...), c.in.LinksOnly...)))
	for _, r := range docs {
		_ = add(r)
	}
	return err
}

// docIDs are row ids as the index's reads take them.
func docIDs(ids []int64) []index.DocID {
	out := make([]index.DocID, len(ids))
	for i, id := range ids {
		out[i] = index.DocID(id)
	}
	return out
}

// value decodes one top-level frontmatter value (the rest stays raw:
// decoding every document's whole frontmatter was a quarter of check --all).
func (d *doc) value(field string) (any, bool) {
	raw, ok := d.fm.get(field)
	if !ok {
		return nil, false
	}
	v, err := decodeValue(raw)
	return v, err == nil
}

// add records a finding; target is what it is about within the document
// (see index.Problem).
func (c *checker) add(path string, line, col int, rule, target, msg string) {
	if line < 1 {
		line, col = 1, 1
	}
	if col < 1 {
		col = 1
	}
	c.findings = append(c.findings, Finding{Path: path, Line: line, Col: col, Rule: rule, Message: msg, Target: target})
	c.fieldOf = append(c.fieldOf, fieldRef{})
}

// addField is add of a finding about a frontmatter field's value: one
// with no line (line < 1) names the field's line of a sidecar when the
// document reads the field from one (beside).
func (c *checker) addField(path string, line, col int, field, value, rule, target, msg string) {
	c.add(path, line, col, rule, target, msg)
	if line < 1 {
		c.fieldOf[len(c.fieldOf)-1] = fieldRef{field: field, value: value}
	}
}

// addFix records a finding with the edit that resolves it.
func (c *checker) addFix(path string, line, col int, rule, target, msg string, fix *index.Fix) {
	c.add(path, line, col, rule, target, msg)
	c.findings[len(c.findings)-1].Fix = fix
}

var lineNumber = lazyre.MustCompile(`\bline \d+`)

// storedTarget is the target of a problem the parser stored: its message,
// without the line numbers some carry ("first on line 3"), which move
// when lines are added above.
func storedTarget(msg string) string {
	return lineNumber.ReplaceAllString(msg, "line")
}

// full are the documents every rule looks at.
func (c *checker) full() []*doc {
	out := make([]*doc, 0, len(c.docs))
	for _, d := range c.docs {
		if !d.linksOnly {
			out = append(out, d)
		}
	}
	return out
}

// storedProblems reports what the parser found (YAML errors, unreadable
// files, bad edge values).
func (c *checker) storedProblems() error {
	var ps []index.Problem
	var err error
	if c.in.Docs == nil {
		ps, err = checkreads.AllStoredProblems(c.ctx, c.q)
	} else {
		var ids []int64
		for _, d := range c.full() {
			ids = append(ids, d.id)
		}
		ps, err = checkreads.StoredProblems(c.ctx, c.q, docIDs(ids), c.in.Skipped)
	}
	if err != nil {
		return err
	}
	indexed, err := c.linkedDocuments(ps)
	for _, p := range ps {
		if target, ok := linkedTarget(p); ok && indexed[target] {
			continue // README.md → index.md: the document is indexed, nothing is lost
		}
		c.add(p.Path, p.Line, p.Col, p.Rule, storedTarget(p.Message), p.Message)
	}
	return err
}

// linkedTarget is the file a skipped symbolic link points to, for the
// problem that says so (Loader.Load).
func linkedTarget(p index.Problem) (string, bool) {
	if p.Rule != markdown.RuleFileSkipped {
		return "", false
	}
	return scan.LinkedTarget(p.Message)
}

// linkedDocuments says which targets of skipped symbolic links among ps
// are indexed documents.
func (c *checker) linkedDocuments(ps []index.Problem) (map[string]bool, error) {
	var targets []string
	for _, p := range ps {
		if t, ok := linkedTarget(p); ok {
			targets = append(targets, t)
		}
	}
	out := map[string]bool{}
	if len(targets) == 0 {
		return out, nil
	}
	ids, err := checkreads.DocIDsOfPaths(c.ctx, c.q, targets)
	for p := range ids {
		out[p] = true
	}
	return out, err
}

// finish applies severities and opt-outs, drops exact repeats, and sorts.
func (c *checker) finish() ([]Finding, error) {
	byPath := map[string][]markdown.Disable{}
	keys := map[string]string{}
	for _, d := range c.docs {
		byPath[d.path] = d.disables
		keys[d.path] = d.key
	}
	out := make([]Finding, 0, len(c.findings))
	var refs []fieldRef
	seen := map[Finding]bool{}
	for i, f := range c.findings {
		sev := c.in.Cfg.Check.Severity(f.Rule)
		if sev == config.SeverityOff {
			continue
		}
		skip, why := c.byRepository(f, keys)
		if skip {
			continue
		}
		if why != "" && sev == config.SeverityError {
			sev = config.SeverityWarning
			f.Message += " (a warning: " + why + ")"
		}
		if sev == config.SeverityError && !c.in.Cfg.Check.Configured[f.Rule] {
			why, err := c.softened(f)
			if err != nil {
				return nil, err
			}
			if why != "" {
				sev = config.SeverityWarning
				f.Message += " (a warning: " + why + ")"
			}
		}
		f.Severity = sev
		ds, ok := byPath[f.Path]
		if !ok {
			var err error
			if ds, err = c.disablesOf(f.Path); err != nil {
				return nil, err
			}
			byPath[f.Path] = ds
		}
		same := f
		same.Fix = nil // a repeat is the same finding, whatever its fix pointer
		if markdown.Covers(ds, f.Rule, f.Line) || seen[same] {
			continue
		}
		seen[same] = true
		out = append(out, f)
		refs = append(refs, c.fieldOf[i])
	}
	if err := c.docKeys(out, keys); err != nil {
		return nil, err
	}
	c.beside(out, refs)
	index.SortProblems(out)
	return out, nil
}

// docKeys sets each finding's document key: known for the checked
// documents, looked up for the others (a duplicate id is reported at every
// location); a skipped file has none and keeps its path.
func (c *checker) docKeys(fs []Finding, keys map[string]string) error {
	var ask []string
	for _, f := range fs {
		if _, ok := keys[f.Path]; !ok {
			keys[f.Path] = f.Path
			ask = append(ask, f.Path)
		}
	}
	found, err := checkreads.KeysOfPaths(c.ctx, c.q, ask)
	if err != nil {
		return err
	}
	for p, k := range found {
		keys[p] = k
	}
	for i := range fs {
		fs[i].Doc = keys[fs[i].Path]
	}
	return nil
}

// disablesOf reads the inline opt-outs of a document that was not
// checked (a duplicate id is reported at every location).
func (c *checker) disablesOf(path string) ([]markdown.Disable, error) {
	dis, err := checkreads.DisablesAt(c.ctx, c.q, path)
	if err != nil || dis == "" {
		return nil, err
	}
	var ds []markdown.Disable
	return ds, json.Unmarshal([]byte(dis), &ds)
}
