package check

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/config"
	"github.com/canon-md/canon/index/lazyre"
	"github.com/canon-md/canon/index/markdown"
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
	add := func(r index.CheckDoc) error {
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
		return index.EachCheckDoc(c.ctx, c.q, add)
	}
	docs, err := index.CheckDocs(c.ctx, c.q, docIDs(append(append([]int64{}, c.in.Docs...), c.in.LinksOnly...)))
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
		ps, err = index.AllStoredProblems(c.ctx, c.q)
	} else {
		var ids []int64
		for _, d := range c.full() {
			ids = append(ids, d.id)
		}
		ps, err = index.StoredProblems(c.ctx, c.q, docIDs(ids), c.in.Skipped)
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
	return index.LinkedTarget(p.Message)
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
	ids, err := index.DocIDsOfPaths(c.ctx, c.q, targets)
	for p := range ids {
		out[p] = true
	}
	return out, err
}

// fields checks frontmatter against the kind's schema and the date fields.
func (c *checker) fields() error {
	ck := &c.in.Cfg.Check
	for _, d := range c.full() {
		if schema, ok := ck.Schemas[d.kind]; ok && (d.typ != "" || d.kind == "adr") && (!markdown.FolderRecord(d.typ, d.ident, d.path) || ck.SchemasSet["adr"]) {
			if ok, err := c.follows(d); err != nil {
				return err
			} else if ok {
				c.schema(d, &schema)
			}
		}
		for _, f := range ck.Dates {
			v, ok := d.value(f)
			if !ok || v == nil {
				continue
			}
			s, isString := v.(string)
			if isString && strings.TrimSpace(s) == "" {
				continue // not filled in ("" where a tool leaves a date to come), as a missing one
			}
			if !isString {
				c.addAt(d, f, "date-format", fmt.Sprint(v), fmt.Sprintf("%s is %s, not a date; write it as YYYY-MM-DD", f, yamlKind(v)))
				continue
			}
			if why := badDate(s); why != "" {
				c.addAt(d, f, "date-format", s, fmt.Sprintf("%s %q is not a date: %s; write it as YYYY-MM-DD (a time may follow)", f, s, why))
			}
		}
	}
	return nil
}

// yamlKind says what YAML read a frontmatter value as, in words: a
// placeholder in braces ({YYYY-MM-DD}) is a mapping to YAML, and Go's own
// printing of it (map[YYYY-MM-DD:<nil>]) means nothing to the user.
func yamlKind(v any) string {
	switch x := v.(type) {
	case map[string]any:
		if len(x) == 1 {
			for k, val := range x {
				if val == nil {
					return fmt.Sprintf("{%s}, which YAML reads as a mapping (quote a placeholder in braces)", k)
				}
			}
		}
		return "a mapping"
	case []any:
		return "a list"
	case bool:
		return fmt.Sprintf("%v, a true/false value", x)
	}
	return fmt.Sprintf("%v", v)
}

// addAt reports at the position of a top-level frontmatter field's value.
// The target is the field and its value: a changed value that is still
// wrong is a new problem, one that stays is not.
func (c *checker) addAt(d *doc, field, rule, value, msg string) {
	p, _ := d.pos.get(field)
	c.add(d.path, p[0], p[1], rule, field+"="+value, msg)
}

// softened says why an error of a rule at its default severity is a
// warning in the repository in front of it, or "" when it stays an error.
// Where a convention of the repository makes the finding likely a false
// alarm, canon follows the repository (ADR-0027).
func (c *checker) softened(f Finding) (string, error) {
	if !config.Adapts(f.Rule) {
		return "", nil // the template names it: its default is fixed
	}
	switch f.Rule {
	case markdown.RuleWikiLink:
		// A repository none of whose wiki-links works does not use them:
		// "[[x]]" there is text in double brackets (GitHub shows it so);
		// but "[[KB-12]]" names an id, and was meant as a link.
		if !idShaped(f.Target) {
			used, err := c.wikiLinksWork()
			if err != nil || !used {
				return "no wiki-link in this repository works, so it may be text in double brackets", err
			}
		}
	case markdown.RuleDanglingRef:
		// "parent: Getting Started": Just the Docs and its kind name a page
		// by its title, which canon does not resolve; "parent: KB-USR-0099"
		// that names nothing stays an error.
		_, name, _ := strings.Cut(f.Target, " ")
		if strings.ContainsAny(strings.TrimSpace(name), " \t") {
			return "no id has spaces, and some tools name a page by its title", nil
		}
		if strings.HasPrefix(strings.TrimSpace(name), "/") && c.in.Cfg.PageAddresses() {
			// GOV.UK's tech docs: parent: /mobile/backend, a page's address
			return "a value from the root may be the address of a page of the site, which canon does not resolve", nil
		}
		// "parent: Decisions" where a page is titled Decisions (MADR's
		// site): one word, but a title all the same.
		if value, _, _ := strings.Cut(name, "#"); !idShaped(value) && value != "" {
			titled, err := c.titled(value)
			if err != nil || titled {
				return "a document is titled " + value + ", and some tools name a page by its title", err
			}
		}
	case markdown.RuleAmbiguousRef:
		// "parent: T" where two pages are titled T: Just the Docs tells
		// them apart by grand_parent or ancestor, which canon does not
		// read; two files or ids of one name stay an error.
		_, name, _ := strings.Cut(f.Target, " ")
		if value, _, _ := strings.Cut(strings.TrimSpace(name), "#"); !idShaped(value) && value != "" {
			n, err := index.TitledCount(c.ctx, c.q, value)
			if err != nil || n > 0 {
				return "a page is titled " + value + ", and some tools name a page by its title and tell pages of one title apart by grand_parent", err
			}
		}
	case "duplicate-id":
		// "overview" in two folders of a documentation site: ids not
		// shaped like a work item's are local to their folder for
		// Docusaurus and its kind; KB-TSK-0001 twice is an error anywhere.
		if !idLike.MatchString(f.Target) {
			return "an id not shaped like PREFIX-123 may be local to its folder, as documentation sites read it", nil
		}
	}
	if (f.Rule == markdown.RuleDanglingRef || f.Rule == markdown.RuleWikiLink) && c.sparse() {
		// The document named may be one of those git has and this sparse
		// checkout leaves out of the working tree.
		return "this is a sparse checkout, and the document may be outside it", nil
	}
	return "", nil
}

// byRepository is what the repository itself says of a finding, whatever
// the configuration says of its rule (canon init writes every rule's
// severity): on a site that renders no wiki-link, "[[x]]" is text (a TOML
// array of tables in a Hugo shortcode), no finding (skip); a template's
// links and values are its placeholders (yyyymmdd-xxx.md), though a
// document with an id is an item (BET-TSK-0002_render-email-template.md);
// Hugo makes anchors canon does not know. why says so when the finding
// becomes a warning.
func (c *checker) byRepository(f Finding, keys map[string]string) (skip bool, why string) {
	cfg := c.in.Cfg
	switch {
	case f.Rule == markdown.RuleWikiLink && !cfg.RendersWikiLinks() && !cfg.Check.Configured[f.Rule]:
		return true, ""
	case markdown.IsTemplate(f.Path) && (keys[f.Path] == "" || keys[f.Path] == f.Path):
		return false, f.Path + " is a template: its links and values are placeholders until it is copied"
	case f.Rule == "broken-anchor" && cfg.MakesOwnAnchors():
		return false, "Hugo makes ids canon does not know, such as a definition term's and {#id} attributes"
	}
	return false, ""
}

// titled reports, once per value, whether some document is titled value.
func (c *checker) titled(value string) (bool, error) {
	key := strings.ToLower(value)
	if t, ok := c.titles[key]; ok {
		return t, nil
	}
	t, err := index.HasTitle(c.ctx, c.q, value)
	if err != nil {
		return false, err
	}
	if c.titles == nil {
		c.titles = map[string]bool{}
	}
	c.titles[key] = t
	return t, nil
}

// wikiLinksWork reports, once per run, whether any wiki-link of the
// repository resolves (Input.WikiLinksWork when the caller knows better).
func (c *checker) wikiLinksWork() (bool, error) {
	if c.wikiUsed == 0 {
		used := false
		if c.in.WikiLinksWork != nil {
			used = *c.in.WikiLinksWork
		} else {
			var err error
			if used, err = index.WikiLinksWork(c.ctx, c.q); err != nil {
				return false, err
			}
		}
		c.wikiUsed = -1
		if used {
			c.wikiUsed = 1
		}
	}
	return c.wikiUsed > 0, nil
}

// sparse reports, once per run, a sparse checkout (Tree.Sparse).
func (c *checker) sparse() bool {
	if c.isSparse == 0 {
		c.isSparse = -1
		if c.in.Tree != nil && c.in.Tree.Sparse(c.ctx) {
			c.isSparse = 1
		}
	}
	return c.isSparse > 0
}

// kanoID is the shape of a Kano work item's id: KB-TSK-0001, APP-EPIC-12.
var kanoID = lazyre.MustCompile(`^[A-Za-z][A-Za-z0-9]*-(EPIC?|FTR|USR|TSK|BUG)-[0-9]+$`)

// follows reports whether the schema of d's kind applies to d. A schema the
// configuration sets applies to every document of its kind; a default one
// (Kano's, docs/architecture.md) applies where Kano's convention is the
// repository's: to an ADR, an item with a Kano-shaped id or none, an item
// of a Kano product, and every item of a repository where any document has
// a Kano-shaped id (there "TSK-2" is a mistake). A repository with
// conventions of its own (Backlog.md's "type: bug" with "id: BACK-534",
// "priority: high", "status: To Do") is not held to Kano's: the repo's
// convention wins over a default.
func (c *checker) follows(d *doc) (bool, error) {
	switch {
	case c.in.Cfg.Check.SchemasSet[d.kind], d.kind == "adr", d.ident == "", KanoShaped(c.in.Cfg.IDs, d.ident):
		return true, nil
	}
	if _, ns := c.in.Cfg.Namespaces.Of(d.path); ns != nil {
		return true, nil
	}
	if c.kano == 0 {
		// LIKE finds the candidates (a Kano repository's first rows are
		// Kano's); the pattern decides.
		kano, err := index.AnyIdentLike(c.ctx, c.q, []string{"%-TSK-%", "%-BUG-%", "%-USR-%", "%-FTR-%", "%-EPI%-%"}, func(id string) bool { return KanoShaped(c.in.Cfg.IDs, id) })
		if err != nil {
			return false, err
		}
		c.kano = -1
		if kano {
			c.kano = 1
		}
	}
	return c.kano > 0, nil
}

// statusWritten reports a decision record whose state is written in its
// text, as adr-tools and MADR write it (a "## Status" section, a
// "**Status**: Accepted" line: markdown's statusSection), and is one of
// the allowed states, in any case (any state when the schema allows any).
func statusWritten(d *doc, allowed []string) bool {
	return d.state != "" && (len(allowed) == 0 || slices.ContainsFunc(allowed, func(a string) bool { return strings.EqualFold(a, d.state) }))
}

// stateSynonym names the other field a document's state may be written
// in: a schema that requires one is satisfied by the other.
var stateSynonym = map[string]string{"state": "status", "status": "state"}

func (c *checker) schema(d *doc, s *config.Schema) {
	for _, f := range s.Required {
		v, ok := d.value(f)
		if alt := stateSynonym[f]; alt != "" && (!ok || v == nil || v == "") {
			v, ok = d.value(alt) // canon reads either as the state (markdown.Document.State)
		}
		if d.kind == "adr" && (!c.in.Cfg.Check.SchemasSet["adr"] || markdown.FolderRecord(d.typ, d.ident, d.path)) && (!ok || v == nil || v == "") {
			// Decision records as MADR and adr-tools write them: "# Use X"
			// names the record, a "## Status" section holds its status. A
			// repository's own adr schema asks frontmatter of records named
			// ADR-NNNN, not of those adr-tools numbers (which have none).
			if f == "title" && d.title != "" || stateSynonym[f] != "" && statusWritten(d, s.States) {
				continue
			}
			if stateSynonym[f] != "" && d.state != "" {
				c.add(d.path, 1, 1, "enum-value", f+"="+d.state, fmt.Sprintf("the written %s %q is not one of %s; use one of them, or list it in check.schemas.%s", f, d.state, strings.Join(s.States, ", "), d.kind))
				continue
			}
		}
		if !ok || v == nil || v == "" {
			c.add(d.path, 1, 1, "required-field", f, fmt.Sprintf("%s needs %s; add %s: to the frontmatter", article(d.kind), f, f))
		}
	}
	stateField := "state"
	if _, ok := d.fm.get("state"); !ok {
		stateField = "status"
	}
	states := s.States
	if _, ns := c.in.Cfg.Namespaces.Of(d.path); ns != nil && d.kind != "adr" {
		// A Kano product's process profile says which states its work
		// items take; one canon cannot read leaves them unchecked.
		switch {
		case ns.Unchecked:
			states = nil
		case len(ns.States) > 0:
			states = ns.States
		}
	}
	c.enum(d, stateField, states)
	c.enum(d, "priority", s.Priorities)
	if s.IDPattern != "" && d.ident != "" {
		re, err := c.regexp(s.IDPattern)
		if err == nil && !c.in.Cfg.IDs.Matches(re, d.ident) {
			c.add(d.path, d.identLine, idCol(d), "id-format", d.ident,
				fmt.Sprintf("id %s does not match %s, the pattern for %s; rename it, or change check.schemas.%s.id_pattern", d.ident, s.IDPattern, article(d.kind), d.kind))
		}
	}
}

// regexp compiles a pattern once per run.
func (c *checker) regexp(pattern string) (*regexp.Regexp, error) {
	if re, ok := c.patterns[pattern]; ok {
		return re, nil
	}
	re, err := regexp.Compile(pattern)
	if c.patterns == nil {
		c.patterns = map[string]*regexp.Regexp{}
	}
	c.patterns[pattern] = re
	return re, err
}

func idCol(d *doc) int {
	if p, ok := d.pos.get("id"); ok {
		return p[1]
	}
	return 1
}

func (c *checker) enum(d *doc, field string, allowed []string) {
	v, ok := d.value(field)
	if !ok || v == nil || len(allowed) == 0 {
		return
	}
	s := fmt.Sprint(v)
	for _, a := range allowed {
		if a == s {
			return
		}
	}
	for _, a := range allowed {
		if d.kind == "adr" && strings.EqualFold(a, s) {
			// canon reads states in any case, and MADR writes status:
			// proposed: a warning, as for an anchor's case. (An item's
			// tool may read them exactly: Kano's.)
			c.addAt(d, field, "enum-case", s, fmt.Sprintf("%s %q is %s in another case: canon reads it so, but the kind's schema writes %s", field, s, a, a))
			return
		}
	}
	msg := fmt.Sprintf("%s %q is not one of %s", field, s, strings.Join(allowed, ", "))
	if near := nearest(s, allowed); near != "" {
		msg += fmt.Sprintf("; did you mean %s?", near)
	} else if name, ns := c.in.Cfg.Namespaces.Of(d.path); ns != nil && len(ns.States) > 0 && field != "priority" {
		msg += fmt.Sprintf("; use one of them (the states of %s)", name)
	} else {
		msg += fmt.Sprintf("; use one of them, or list it in check.schemas.%s", d.kind)
	}
	c.addAt(d, field, "enum-value", s, msg)
}

// nearest finds an allowed value equal to s but for case, spaces, dashes,
// underscores and combining marks (the first, in allowed's order).
func nearest(s string, allowed []string) string {
	if near := nearAll(s, allowed); len(near) > 0 {
		return near[0]
	}
	return ""
}

// nearAll lists the allowed values equal to s but for case, spaces,
// dashes, underscores and combining marks, in allowed's order.
func nearAll(s string, allowed []string) []string {
	norm := func(x string) string {
		x = strings.NewReplacer(" ", "", "-", "", "_", "").Replace(strings.ToLower(x))
		return strings.Map(func(r rune) rune {
			if unicode.Is(unicode.Mn, r) {
				return -1 // İ lower-cases to i and a combining dot
			}
			return r
		}, x)
	}
	var out []string
	for _, a := range allowed {
		if norm(a) == norm(s) {
			out = append(out, a)
		}
	}
	return out
}

// badDate says why s is not YYYY-MM-DD or an RFC 3339 date-time ("" when it
// is one).
func badDate(s string) string {
	if _, err := time.Parse(time.RFC3339, s); err == nil {
		return ""
	}
	day, rest := s, ""
	if len(s) > 10 && (s[10] == 'T' || s[10] == 't' || s[10] == ' ' || s[10] == '\t') {
		day, rest = s[:10], s[11:]
	}
	if len(day) != 10 || day[4] != '-' || day[7] != '-' {
		return "the form is not YYYY-MM-DD"
	}
	if _, err := time.Parse("2006-01-02", day); err != nil {
		// A field that is not a number stays 0, which the message names.
		var month, d int
		_, _ = fmt.Sscanf(day[5:7], "%d", &month)
		_, _ = fmt.Sscanf(day[8:10], "%d", &d)
		if month < 1 || month > 12 {
			return fmt.Sprintf("there is no month %d", month)
		}
		return fmt.Sprintf("day %d does not exist in that month", d)
	}
	if len(s) > 10 {
		return badTimeOfDay(rest) // "2024-01-15T" with no time says so
	}
	return ""
}

// timeOfDay is what may follow a date and a T or spaces, as YAML's
// timestamps, Jekyll and Hugo write it: 10:30, 10:30:00, 9:05:07.25, then a
// zone (Z, +01:00, +0100, -7) or none.
var timeOfDay = lazyre.MustCompile(`^[ \t]*([0-9]{1,2}):([0-9]{2})(?::([0-9]{2})(?:\.[0-9]+)?)?(?:[ \t]*(?:Z|[+-][0-9]{1,2}(?::?[0-9]{2})?))?$`)

// badTimeOfDay says what is wrong with the time that follows a date, or ""
// (the hour is below 24, the minute below 60, the second below 61).
func badTimeOfDay(s string) string {
	m := timeOfDay.FindStringSubmatch(s)
	if m == nil {
		return "the time after the date is not HH:MM[:SS] with an optional zone"
	}
	// The pattern holds digits only; the seconds may be absent (0).
	h, _ := strconv.Atoi(m[1])
	mi, _ := strconv.Atoi(m[2])
	sec, _ := strconv.Atoi(m[3])
	if h > 23 || mi > 59 || sec > 60 {
		return fmt.Sprintf("there is no time %s", strings.TrimSpace(s))
	}
	return ""
}

// duplicates reports every location of an id or uid a checked document
// shares with another. One grouped query per batch of values finds the
// shared ones; only those are looked up further.
func (c *checker) duplicates() error {
	for _, dim := range []struct {
		rule, what string
		of         func(*doc) string
		shared     func(context.Context, index.Querier, []string) ([]string, error)
		holders    func(context.Context, index.Querier, string) ([]index.Holder, error)
	}{
		{"duplicate-id", "id", func(d *doc) string { return d.ident }, index.SharedIdents, index.IdentHolders},
		{"duplicate-uid", "uid", func(d *doc) string { return d.uid }, index.SharedUIDs, index.UIDHolders},
	} {
		var vals []string
		seen := map[string]bool{}
		for _, d := range c.full() {
			if v := dim.of(d); v != "" && !seen[v] {
				seen[v] = true
				vals = append(vals, v)
			}
		}
		shared, err := dim.shared(c.ctx, c.q, vals)
		if err != nil {
			return err
		}
		for _, v := range shared {
			hs, err := dim.holders(c.ctx, c.q, v)
			if err != nil {
				return err
			}
			c.duplicate(dim.rule, dim.what, v, hs)
		}
	}
	return nil
}

// duplicate reports each of the documents holding the same id or uid
// (val) where it clashes with another.
func (c *checker) duplicate(rule, what, val string, hs []index.Holder) {
	type loc struct {
		path      string
		line, col int
		uid       string
	}
	locs := make([]loc, 0, len(hs))
	for _, h := range hs {
		l := loc{path: h.Path, line: h.Line, uid: h.UID}
		var pm map[string][2]int
		if err := json.Unmarshal([]byte(h.FieldPos), &pm); err == nil {
			l.col = pm[what][1]
		} // no positions recorded: the finding names the line only
		locs = append(locs, l)
	}
	// Ids are unique within a namespace: documents in two of them may
	// share one. A uid is unique everywhere.
	nsOf := func(p string) string {
		if what == "uid" {
			return ""
		}
		name, _ := c.in.Cfg.Namespaces.Of(p)
		return name
	}
	// An archived document's id is free again: Backlog.md hands the id
	// of an archived or completed task to a new one on purpose, so a pair
	// with one side in an archive folder (work.archive) is no clash. A uid
	// is unique everywhere.
	archived := func(p string) bool { return what == "id" && c.in.Cfg.Work.Archived(p) }
	clash := func(a, b loc) bool { return nsOf(a.path) == nsOf(b.path) && !archived(a.path) && !archived(b.path) }
	for i, l := range locs {
		var others []string
		uids := l.uid != ""
		for j, o := range locs {
			if j != i && clash(l, o) {
				others = append(others, o.path)
				uids = uids || o.uid != ""
			}
		}
		if len(others) == 0 {
			continue
		}
		msg := fmt.Sprintf("id %s is also used by %s; give one of them a new id", val, strings.Join(others, ", "))
		if uids {
			msg += fmt.Sprintf(" (meanwhile references can say %s@uidprefix)", val)
		}
		if what == "uid" {
			msg = fmt.Sprintf("uid %s is also used by %s; a uid must be unique, give one of them a new one", val, strings.Join(others, ", "))
		}
		c.add(l.path, l.line, l.col, rule, val, msg)
	}
}

// idLike is the shape of a work item's id: PREFIX-NNN, PREFIX-TSK-0001.
var idLike = lazyre.MustCompile(`^[A-Za-z][A-Za-z0-9]*(-[A-Za-z0-9]+)*-[0-9]+$`)

// idShaped reports whether a wiki-link finding's target (" NAME#ANCHOR")
// names something shaped like an id: meant as a reference, whatever the
// repository's other wiki-links do.
func idShaped(target string) bool {
	name, _, _ := strings.Cut(strings.TrimSpace(target), "#")
	return idLike.MatchString(name)
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
	seen := map[Finding]bool{}
	for _, f := range c.findings {
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
	}
	if err := c.docKeys(out, keys); err != nil {
		return nil, err
	}
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
	found, err := index.KeysOfPaths(c.ctx, c.q, ask)
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
	dis, err := index.DisablesAt(c.ctx, c.q, path)
	if err != nil || dis == "" {
		return nil, err
	}
	var ds []markdown.Disable
	return ds, json.Unmarshal([]byte(dis), &ds)
}

// KanoShaped reports whether id is shaped like a Kano work item's id
// (KB-TSK-0001; KB-TSK-7f3a9c under the random scheme ids): where one is,
// Kano's default schemas hold (follows).
func KanoShaped(ids config.IDs, id string) bool { return ids.Matches(kanoID.Regexp(), id) }

// IsDate reports whether s is a date date-format accepts.
func IsDate(s string) bool { return badDate(s) == "" }
