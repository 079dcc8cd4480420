package usecase

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/config"
	"github.com/canon-md/canon/index/edit"
	"github.com/canon-md/canon/index/human"
	"github.com/canon-md/canon/index/ids"
	"github.com/canon-md/canon/index/lazyre"
	"github.com/canon-md/canon/index/markdown"
	"github.com/canon-md/canon/index/resolve"
	"github.com/canon-md/canon/index/safepath"
	"github.com/canon-md/canon/index/scan"
)

// idEnv is what a rename reads: the working tree, its index, the
// configuration (edges, kinds, the prefixes and addresses references may
// use), and the clock of the worklog line id fix writes (CANON_NOW).
type idEnv struct {
	Root   string
	Index  *index.Store
	Config *config.Config
	Now    time.Time
}

// ErrIDRename says canon id rename cannot do what it was asked (an id
// that names no document, or several; a repl id already taken): a usage
// error.
var ErrIDRename = errors.New("bad id rename")

// IDRenameArgs say which document's id canon id rename changes.
type IDRenameArgs struct {
	Old, New string
	// Path is the document to rename when Old names several.
	Path string
	// Markdown lists the repository's Markdown files that are not
	// documents (a README, pages outside the roots): their links to the
	// document are rewritten too.
	Markdown []string
	Scope    *scan.Scope
	// Docs are the documents that have an id (nil: read from the index).
	Docs []ids.Doc
	// Worklog, when set, is appended to the renamed document's worklog
	// (canon id fix says there what it was renamed from).
	Worklog string
}

// IDChange is one id a rename changes: the document's, or a child id
// that embeds it (task-12.1 when task-12 is renamed).
type IDChange struct {
	Old     string `json:"old"`
	New     string `json:"repl"`
	Path    string `json:"path"`
	NewPath string `json:"new_path,omitempty"` // the file's repl name, when it carries the id
	// Kept are the other documents that carry Old and keep it.
	Kept []string `json:"kept,omitempty"`

	uid string
}

// Unattributed is a reference canon id rename leaves as it is because it
// cannot tell which document it means (or could not rewrite it).
type Unattributed struct {
	Path string `json:"path"`
	Line int    `json:"line"`
	Col  int    `json:"col"`
	Ref  string `json:"ref"`
	Why  string `json:"why"`
}

// IDRenamePlan is every edit canon id rename makes, computed without
// writing: Diff shows it, Write makes it (all files or none).
type IDRenamePlan struct {
	IDs          []IDChange     `json:"ids"`
	Files        []*edit.File   `json:"files"`
	References   int            `json:"references"` // references rewritten
	Unattributed []Unattributed `json:"unattributed"`

	root    string
	scope   *scan.Scope
	idents  map[string][]ids.Doc      // lower-cased id → its documents
	olds    map[string]string         // config.Prefixes: task-7 and 7 name BACK-7 (ADR-0051)
	urls    []string                  // config.RepoURLs: the repository's own addresses name its files (ADR-0052)
	bare    []string                  // config.BareNumbers: 2718 names eip-2718
	worklog string                    // the worklog line of the renamed document
	notes   func([]byte) edit.Section // the section it goes in (edit.Notes)
	pending *edit.Set                 // the working tree as the renames planned before this one leave it
}

// newIDRE is what a repl id may be: a plain YAML scalar and a file-name
// part, letters, digits, '.', '_' and '-'.
var newIDRE = lazyre.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$`)

// planRename works out canon id rename: the document whose id is a.Old
// (the one at a.Path when several carry it), its child ids, the file names
// that carry them, and every reference to them in the repository's
// Markdown, each an edit of the line it is on.
func planRename(ctx context.Context, e *idEnv, a IDRenameArgs) (*IDRenamePlan, error) {
	return planIDRename(ctx, e, a, edit.NewSet(e.Root, a.Scope))
}

// planIDRename is planRename over the working tree as the renames
// planned before it leave it (v, a change set not written).
func planIDRename(ctx context.Context, e *idEnv, a IDRenameArgs, v *edit.Set) (*IDRenamePlan, error) {
	docs := a.Docs
	if docs == nil {
		var err error
		if docs, err = e.Index.IdentDocs(ctx); err != nil {
			return nil, err
		}
	}
	if !newIDRE.MatchString(a.New) {
		return nil, fmt.Errorf("%w: %q is not an id canon writes; use letters, digits, '.', '_' and '-'", ErrIDRename, a.New)
	}
	if w, _ := markdown.Scalar(a.New, "yaml", 0); w != a.New {
		return nil, fmt.Errorf("%w: YAML reads %s as a boolean or a null, not as an id; choose another", ErrIDRename, a.New)
	}
	byIdent := map[string][]ids.Doc{}
	for _, d := range docs {
		k := strings.ToLower(d.Ident)
		byIdent[k] = append(byIdent[k], d)
	}
	target, err := pickTarget(byIdent[strings.ToLower(a.Old)], a.Old, a.Path)
	if err != nil {
		return nil, err
	}
	changes := []IDChange{{Old: target.Ident, New: a.New, Path: target.Path, uid: target.UID}}
	// Child ids: task-12.1 and task-12.1.2 under task-12.
	for _, d := range docs {
		if n, ok := edit.FoldPrefix(d.Ident, target.Ident); ok && strings.HasPrefix(d.Ident[n:], ".") && d.Path != target.Path {
			changes = append(changes, IDChange{Old: d.Ident, New: a.New + d.Ident[n:], Path: d.Path, uid: d.UID})
		}
	}
	for i := range changes {
		c := &changes[i]
		if strings.EqualFold(c.Old, c.New) {
			return nil, fmt.Errorf("%w: %s is already the id of %s", ErrIDRename, c.Old, c.Path)
		}
		if taken := byIdent[strings.ToLower(c.New)]; len(taken) > 0 {
			return nil, fmt.Errorf("%w: %s is already the id of %s; choose another (canon id next names a free one)", ErrIDRename, c.New, taken[0].Path)
		}
		for _, d := range byIdent[strings.ToLower(c.Old)] {
			if d.Path != c.Path {
				c.Kept = append(c.Kept, d.Path)
			}
		}
		if base, ok := edit.ReplaceID(path.Base(c.Path), c.Old, c.New); ok {
			c.NewPath = path.Join(path.Dir(c.Path), base)
			if v.Exists(c.NewPath) {
				return nil, fmt.Errorf("%w: %s exists already, so %s cannot take that name; move it first", ErrIDRename, c.NewPath, c.Path)
			}
		}
	}
	p := &IDRenamePlan{IDs: changes, Unattributed: []Unattributed{}, root: e.Root, scope: a.Scope, pending: v, idents: byIdent}
	if e.Config != nil {
		p.olds, p.urls, p.bare = e.Config.Prefixes, e.Config.RepoURLs, e.Config.BareNumbers
	}
	if a.Worklog != "" {
		p.worklog = e.Now.Format("2006-01-02 15:04") + " " + a.Worklog
		doc := index.DocRef{Key: target.Key, ID: target.Ident, Path: target.Path, Kind: target.Kind}
		p.notes = func(b []byte) edit.Section { return edit.Notes(ctx, e.Index, e.Root, e.Config, doc, b) }
	}
	files, err := a.Scope.Walk()
	if err != nil {
		return nil, err
	}
	docPaths := make([]string, len(files))
	for i, f := range files {
		docPaths[i] = f.Path
	}
	paths := make([]string, 0, len(files)+len(a.Markdown))
	isDoc := map[string]bool{}
	for _, f := range v.Paths(docPaths) {
		paths = append(paths, f)
		isDoc[f] = true
	}
	for _, m := range v.Paths(a.Markdown) {
		if !isDoc[m] {
			paths = append(paths, m)
		}
	}
	sort.Strings(paths)
	opts := &markdown.Options{Edges: e.Config.Edges, Kinds: e.Config.Kinds}
	for _, rel := range paths {
		if err := p.planFile(rel, !isDoc[rel], opts); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// pickTarget is the document to rename among those that carry old.
func pickTarget(cands []ids.Doc, old, at string) (ids.Doc, error) {
	var paths []string
	for _, d := range cands {
		if at != "" && d.Path == at {
			return d, nil
		}
		paths = append(paths, d.Path)
	}
	switch {
	case len(cands) == 0:
		return ids.Doc{}, fmt.Errorf("%w: no document has the id %s; canon find %s looks for it", ErrIDRename, old, old)
	case at != "":
		return ids.Doc{}, fmt.Errorf("%w: %s does not have the id %s; it is the id of %s", ErrIDRename, at, old, strings.Join(paths, ", "))
	case len(cands) > 1:
		return ids.Doc{}, fmt.Errorf("%w: %s is the id of %d documents (%s); say which one to rename with --path", ErrIDRename, old, len(cands), strings.Join(paths, ", "))
	}
	return cands[0], nil
}

// planFile finds the references of one file to the renamed documents and
// plans their edits.
func (p *IDRenamePlan) planFile(rel string, other bool, opts *markdown.Options) error {
	before, err := p.pending.Read(rel)
	if err != nil {
		var tl *safepath.TooLargeError
		if other && (errors.As(err, &tl) || errors.Is(err, os.ErrNotExist)) {
			return nil // a Markdown file canon does not read
		}
		return err
	}
	d := markdown.Parse(rel, before, opts)
	var fixes []index.Problem
	fix := func(line, col int, old, repl string) {
		fixes = append(fixes, index.Problem{Path: rel, Line: line, Col: col, Fix: &index.Fix{Path: rel, Line: line, Col: max(col, 1), Old: old, New: repl}})
	}
	var renamed *IDChange
	for i := range p.IDs {
		c := &p.IDs[i]
		if c.Path == rel {
			renamed = c
			if d.IDLine > 0 && d.ID != "" {
				fix(d.IDLine, 1, d.ID, c.New)
			}
		}
	}
	ids := len(fixes)
	seen := map[[2]int]bool{}
	for _, r := range d.Refs {
		seen[[2]int{r.Line, r.Col}] = true
		old, repl, why := p.refTo(rel, strings.TrimSpace(r.Raw), false)
		p.note(rel, r.Line, r.Col, r.Raw, old, repl, why, fix)
	}
	// A frontmatter value that is one of the ids names it whatever its
	// field (Backlog.md's parent_task_id and dependencies, which the
	// configuration may not list as edges).
	eachScalar(d.Frontmatter, 0, func(v *markdown.Value) {
		if v.Line == 0 || seen[[2]int{v.Line, v.Col}] {
			return
		}
		for _, c := range p.IDs {
			if t := strings.TrimSpace(v.Text); strings.EqualFold(t, c.Old) || p.byOldPrefix(t, c.Old) {
				old, repl, why := p.refTo(rel, strings.TrimSpace(v.Text), false)
				p.note(rel, v.Line, v.Col, v.Text, old, repl, why, fix)
				return
			}
		}
	})
	for _, l := range d.Body.Links {
		switch l.Form {
		case markdown.FormWiki, markdown.FormEmbed:
			old, repl, why := p.refTo(rel, l.Dest, false)
			p.note(rel, l.Line, l.Col, l.Dest, old, repl, why, fix)
		case markdown.FormMarkdown:
			old, repl, why := p.refTo(rel, l.Dest, true)
			p.note(rel, l.Line, l.Col, l.Dest, old, repl, why, fix)
			if why == "" {
				// [KB-12](tasks/KB-12.md): the link's text is the id.
				for _, c := range p.IDs {
					if l.Text == c.Old && p.pathOf(rel, l.Dest) == c.Path {
						fix(l.Line, l.Col, "["+c.Old+"]", "["+c.New+"]")
					}
				}
			}
		}
	}
	after, fixed, skipped := applyFixes(before, fixes)
	p.References += max(len(fixed)-ids, 0)
	for _, s := range skipped {
		p.Unattributed = append(p.Unattributed, Unattributed{Path: rel, Line: s.Finding.Line, Col: s.Finding.Col, Ref: s.Finding.Fix.Old, Why: "not rewritten: " + s.Why})
	}
	if renamed != nil && renamed == &p.IDs[0] && p.worklog != "" {
		if after, _, err = edit.AppendToSection(after, p.notes(after), p.worklog, p.worklog); err != nil {
			return fmt.Errorf("%s: the worklog line cannot be added: %w", rel, err)
		}
	}
	fc := &edit.File{Path: rel, Key: rel, Edits: len(fixed), Markdown: other, Before: before, After: after}
	if renamed != nil && renamed.NewPath != "" {
		fc.Path, fc.From = renamed.NewPath, rel
	}
	if fc.From != "" || string(after) != string(before) {
		p.Files = append(p.Files, fc)
	}
	return nil
}

// eachScalar calls fn with every string value of the frontmatter but the
// top level's id and uid (the document's own identity).
func eachScalar(v *markdown.Value, depth int, fn func(*markdown.Value)) {
	if v == nil {
		return
	}
	switch v.Kind {
	case markdown.String:
		fn(v)
	case markdown.List:
		for _, it := range v.Items {
			eachScalar(it, depth+1, fn)
		}
	case markdown.Map:
		for _, f := range v.Fields {
			if depth == 0 && (strings.EqualFold(f.Key, "id") || strings.EqualFold(f.Key, "uid")) {
				continue
			}
			eachScalar(f.Value, depth+1, fn)
		}
	}
}

// note plans the edit of one reference (old → repl) or lists it as not
// attributed (why).
func (p *IDRenamePlan) note(rel string, line, col int, raw, old, repl, why string, fix func(int, int, string, string)) {
	switch {
	case why != "":
		p.Unattributed = append(p.Unattributed, Unattributed{Path: rel, Line: line, Col: col, Ref: raw, Why: why})
	case old != "" && old != repl:
		fix(line, col, old, repl)
	}
}

// pathOf is the repository path a reference names as a path ("" when it
// names none).
func (p *IDRenamePlan) pathOf(src, target string) string {
	target, _, _ = strings.Cut(target, "#")
	if target == "" || !strings.Contains(target, "/") && !scan.IsMarkdown(target) {
		return ""
	}
	return resolve.LinkTarget(src, target, p.urls)
}

// refTo says what a reference written in src becomes: the text to replace
// and its replacement (both "" when it names none of the renamed
// documents), or why it is left alone although it may name one. A
// Markdown link (md) names a file by its path; a frontmatter reference
// or a wiki-link names an id (ID@uidprefix picks one of several), a
// file stem, or a path.
func (p *IDRenamePlan) refTo(src, raw string, md bool) (old, repl, why string) {
	if strings.HasPrefix(raw, "[[") && strings.HasSuffix(raw, "]]") {
		raw = raw[2 : len(raw)-2]
		if i := strings.IndexByte(raw, '|'); i >= 0 {
			raw = raw[:i]
		}
	}
	target, _, _ := strings.Cut(strings.TrimSpace(raw), "#")
	if target == "" {
		return "", "", ""
	}
	if at := p.pathOf(src, target); at != "" || md {
		if r := p.pathOf("", target); !md && r != "" && r != at && p.pending.Exists(r) {
			at = r // a frontmatter path names a file from the repository's root first, as index/resolve reads it (refPlan)
		}
		for _, c := range p.IDs {
			if at == c.Path && c.NewPath != "" {
				base := path.Base(target)
				return base, path.Base(c.NewPath), ""
			}
		}
		if md {
			return "", "", ""
		}
	}
	id, uidPrefix := target, ""
	if i := strings.LastIndexByte(target, '@'); i > 0 && i < len(target)-1 && !strings.ContainsAny(target, "/ ") {
		id, uidPrefix = target[:i], strings.ToLower(target[i+1:])
	}
	for _, c := range p.IDs {
		stem := c.NewPath != "" && strings.EqualFold(id, markdown.Stem(c.Path))
		byPrefix := p.byOldPrefix(id, c.Old)
		if !strings.EqualFold(id, c.Old) && !stem && !byPrefix {
			continue
		}
		repl := edit.CaseLike(id, c.New)
		switch {
		case byPrefix:
			repl = c.New // task-7 and 7 named BACK-7: the new id, whole
			if pre, n, ok := resolve.PrefixNumber(c.New); ok && slices.Contains(p.bare, pre) && !strings.ContainsRune(id, '-') && p.byOldPrefix(n, c.New) {
				repl = n // bare_numbers: a bare number stays bare where the new one names the document too (requires: 6 → 60)
			}
		case stem && !strings.EqualFold(id, c.Old):
			repl = markdown.Stem(c.NewPath)
		}
		switch {
		case uidPrefix != "" && strings.HasPrefix(strings.ToLower(c.uid), uidPrefix):
			return id, repl, ""
		case uidPrefix != "":
			return "", "", "" // names the document that keeps the id
		case len(c.Kept) == 0 || src == c.Path:
			return id, repl, ""
		}
		for _, k := range c.Kept {
			if src == k {
				return "", "", "" // the other document names itself
			}
		}
		return "", "", fmt.Sprintf("%s is the id of %s and of %s, and this reference does not say which (write %s@UIDPREFIX, or a path)", c.Old, c.Path, strings.Join(c.Kept, ", "), c.Old)
	}
	return "", "", ""
}

// byOldPrefix reports a reference that names the id old through the
// configured prefixes, and not as the id of some document.
func (p *IDRenamePlan) byOldPrefix(ref, old string) bool {
	return len(p.idents[strings.ToLower(ref)]) == 0 && slices.Contains(resolve.OldPrefixIDs(ref, p.olds, p.bare), strings.ToLower(old))
}

// Diff is the unified diff of the rename, a renamed file's from its old
// path.
func (p *IDRenamePlan) Diff() string { return edit.Diff(p.Files) }

// IDRenamed is what canon id rename did, or would do with a dry run. Its
// JSON is documented in docs/ids.md.
type IDRenamed struct {
	*IDRenamePlan
	DryRun  bool     `json:"dry_run"`
	Written []string `json:"written"`
	Diff    string   `json:"diff,omitempty"`
}

// renameIDs makes several renames in one step (canon id fix): each is
// planned against the working tree as the ones before it leave it (one
// change set), then every file is written at once through the edit
// engine (edit.Set.Apply), the files moved told to git's index in the
// same step, so that a write that fails leaves every file as it was and
// one killed midway is finished or undone by the next command; the index
// takes the files. A dry run shows each rename's diff and writes nothing.
func renameIDs(ctx context.Context, repo edit.Repo, e *idEnv, as []IDRenameArgs, dryRun bool) ([]*IDRenamed, error) {
	if err := repo.SyncWorkingTree(ctx); err != nil {
		return nil, err
	}
	scope := repo.Documents()
	v := edit.NewSet(e.Root, scope)
	out := make([]*IDRenamed, 0, len(as))
	var docs []ids.Doc
	for _, a := range as {
		if docs == nil && a.Docs == nil {
			var err error
			if a.Docs, err = e.Index.IdentDocs(ctx); err != nil {
				return nil, err
			}
		}
		if docs != nil {
			a.Docs = docs
		}
		a.Scope = scope
		plan, err := planIDRename(ctx, e, a, v)
		if err != nil {
			return nil, err
		}
		docs = renamedDocs(a.Docs, plan.IDs)
		for _, fc := range plan.Files {
			v.Add(fc)
		}
		r := &IDRenamed{IDRenamePlan: plan, DryRun: dryRun, Written: []string{}}
		if dryRun {
			r.Diff = plan.Diff()
		}
		out = append(out, r)
	}
	if dryRun {
		return out, nil
	}
	if _, err := v.Apply(ctx, repo, renameCommand(as), nil); err != nil {
		if re := (*safepath.RecordError)(nil); errors.As(err, &re) {
			return nil, fmt.Errorf("the files are written, but git's index was not told of the files moved (git add the new paths, git rm --cached the old ones): %w", re.Err)
		}
		return nil, err
	}
	for _, r := range out {
		for _, fc := range r.Files {
			if fc.From != "" {
				r.Written = append(r.Written, fc.From)
			}
			r.Written = append(r.Written, fc.Path)
		}
	}
	return out, nil
}

// renameCommand is the renames as a person types them again: canon id
// rename for one, canon id fix for several.
func renameCommand(as []IDRenameArgs) string {
	if len(as) != 1 {
		return "canon id fix"
	}
	c := "canon id rename " + as[0].Old + " " + as[0].New
	if as[0].Path != "" {
		c += " --path " + as[0].Path
	}
	return c
}

// renamedDocs is docs after the renames of ids: each renamed document
// with its new id and path.
func renamedDocs(docs []ids.Doc, changes []IDChange) []ids.Doc {
	out := make([]ids.Doc, len(docs))
	copy(out, docs)
	for _, c := range changes {
		for i := range out {
			if out[i].Path == c.Path && out[i].Ident == c.Old {
				out[i].Ident = c.New
				if c.NewPath != "" {
					out[i].Path = c.NewPath
				}
			}
		}
	}
	return out
}

// WriteText prints the diff (a dry run), one line for each id changed, the
// references left alone and why.
func (r *IDRenamed) WriteText(w io.Writer) error {
	fmt.Fprint(w, r.Diff)
	verb := "renamed"
	if r.DryRun {
		verb = "would rename"
	}
	for _, c := range r.IDs {
		line := fmt.Sprintf("%s %s to %s (%s", verb, c.Old, c.New, index.QuotePath(c.Path))
		if c.NewPath != "" {
			line += " → " + index.QuotePath(c.NewPath)
		}
		line += ")"
		if len(c.Kept) > 0 {
			line += "; " + c.Old + " stays with " + strings.Join(c.Kept, ", ")
		}
		fmt.Fprintln(w, line)
	}
	fmt.Fprintf(w, "%s rewritten in %s\n", human.Plural(r.References, "reference"), human.Plural(len(r.Files), "file"))
	for _, u := range r.Unattributed {
		fmt.Fprintf(w, "left alone: %s:%d:%d %s: %s\n", index.QuotePath(u.Path), u.Line, u.Col, u.Ref, u.Why)
	}
	if r.DryRun {
		_, err := fmt.Fprintln(w, "dry run: nothing was written")
		return err
	}
	return nil
}
