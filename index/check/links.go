package check

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/url"
	"path"
	"slices"
	"sort"
	"strings"
	"unicode"

	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/internal/checkreads"
	"github.com/canon-md/canon/index/internal/docs"
	"github.com/canon-md/canon/index/markdown"
	"github.com/canon-md/canon/index/resolve"
	"github.com/canon-md/canon/index/scan"
)

// lnk is one stored link of a checked document.
type lnk struct {
	src                             *doc
	typ, field, form, raw, anchor   string
	line, col                       int
	status                          string
	dst                             int64 // 0 when unresolved
	dstPath, dstKind, dstID, dstKey string
}

// links checks every link of the checked documents: targets that resolve
// to nothing or to several documents, files missing from git's tree (with
// git's case), anchors (GitHub's slugs), and the frontmatter graph rules.
func (c *checker) links() error {
	if len(c.docs) == 0 {
		return nil
	}
	all, err := c.loadLinks()
	if err != nil {
		return err
	}
	var files []*lnk // links whose target file must exist in git's tree
	var anchored []*lnk
	for _, l := range all {
		switch l.status {
		case resolve.StatusDangling, resolve.StatusAmbiguous:
			if l.form == resolve.FormMD || l.form == resolve.FormImage {
				// A Markdown target missing from the index may still be a
				// file in git's tree (an excluded folder): gitFiles decides,
				// for all of them at once (one git process, not one each).
				if resolve.LinkTarget(l.src.path, l.raw, c.in.Cfg.RepoURLs) == "" {
					c.add(l.src.path, l.line, l.col, "broken-link", l.raw, fmt.Sprintf("link %s leaves the repository; link to a file inside it", l.raw))
				} else {
					files = append(files, l)
				}
				continue
			}
			if err := c.unresolved(l); err != nil {
				return err
			}
			continue
		}
		if (l.form == resolve.FormMD || l.form == resolve.FormImage) && (l.status == resolve.StatusOK || l.status == resolve.StatusFile) {
			files = append(files, l)
		}
		if l.anchor != "" && (l.status == resolve.StatusOK || l.status == resolve.StatusSelf) && !resolve.AnchorUnchecked(l.form, l.raw) {
			anchored = append(anchored, l)
		}
		if l.form == resolve.FormRef && l.status == resolve.StatusOK && !l.src.linksOnly {
			c.graphRules(l)
		}
	}
	if err := c.gitFiles(files); err != nil {
		return err
	}
	if err := c.anchors(anchored); err != nil {
		return err
	}
	return c.cycles(all)
}

func (c *checker) loadLinks() ([]*lnk, error) {
	var out []*lnk
	var dsts []int64
	add := func(r checkreads.CheckLink) error {
		if templated(r.Raw) {
			return nil // {{< ref "x" >}}, {% link x.md %}, {SLUG}.md: a template engine writes it
		}
		l := &lnk{src: c.byID[int64(r.Src)], typ: r.Type, field: r.Field, form: r.Form, raw: r.Raw, anchor: r.Anchor,
			line: r.Line, col: r.Col, status: r.Status, dst: int64(r.Dst)}
		if l.src != nil {
			out = append(out, l)
			if l.dst != 0 {
				dsts = append(dsts, l.dst)
			}
		}
		return nil
	}
	var err error
	if c.in.Docs == nil && c.in.LinksOnly == nil {
		err = checkreads.EachLinkToCheck(c.ctx, c.q, add)
	} else {
		ids := make([]int64, 0, len(c.docs))
		for _, d := range c.docs {
			ids = append(ids, d.id)
		}
		err = checkreads.EachCheckLink(c.ctx, c.q, docIDs(ids), add)
	}
	if err != nil {
		return nil, err
	}
	ref, err := c.refs(dsts)
	if err != nil {
		return nil, err
	}
	for _, l := range out {
		if ref, ok := ref(l.dst); ok {
			l.dstPath, l.dstKind, l.dstID, l.dstKey = ref.Path, ref.Kind, ref.ID, ref.Key
		}
	}
	return out, nil
}

// refs names the documents at ids: ref answers for each, from what the
// checker holds when it loaded the document, else from the index (ok
// false for an id no document has).
func (c *checker) refs(ids []int64) (ref func(int64) (index.DocRef, bool), err error) {
	var ask []index.DocID
	for _, id := range ids {
		if c.byID[id] == nil {
			ask = append(ask, index.DocID(id))
		}
	}
	var more map[index.DocID]index.DocRef
	if len(ask) > 0 {
		slices.Sort(ask) // many links may name one document
		more, err = docs.DocRefsOf(c.ctx, c.q, slices.Compact(ask))
	}
	return func(id int64) (index.DocRef, bool) {
		if d := c.byID[id]; d != nil {
			return index.DocRef{Key: d.key, ID: d.displayID, Path: d.path, Kind: d.kind}, true
		}
		r, ok := more[index.DocID(id)]
		return r, ok
	}, err
}

// unresolved reports a frontmatter reference or wiki-link that names no
// document, or several.
func (c *checker) unresolved(l *lnk) error {
	if l.form == resolve.FormRef && l.status == resolve.StatusAmbiguous {
		// An id an archived document shares with a live one is the live
		// one's (duplicate): the reference names it, as Backlog.md reads
		// it.
		paths, err := checkreads.CandidatePaths(c.ctx, c.q, l.src.path, l.form, l.raw)
		if err != nil {
			return err
		}
		live := 0
		for _, p := range paths {
			if !c.in.Cfg.Work.Archived(p) {
				live++
			}
		}
		if live <= 1 {
			return nil
		}
	}
	p, err := checkreads.UnresolvedProblem(c.ctx, c.q, l.src.path, l.field, l.form, l.raw, l.anchor, l.status, l.line, l.col)
	if err != nil {
		return err
	}
	c.addField(p.Path, p.Line, p.Col, l.field, l.raw, p.Rule, l.field+" "+l.raw+"#"+l.anchor, p.Message)
	return nil
}

// gitFiles reports links to files git's tree does not have, with git's
// case: on a case-insensitive disk a wrong case works locally and breaks on
// GitHub.
func (c *checker) gitFiles(ls []*lnk) error {
	if len(ls) == 0 || c.in.Tree == nil {
		return nil
	}
	a, err := c.askTree(ls)
	if err != nil {
		return err
	}
	subCount := map[[2]string]int{}
	for i, l := range ls {
		if sub := a.intoSub[l]; sub != "" {
			k := [2]string{l.src.path, sub}
			if subCount[k]++; subCount[k] == 1 {
				c.add(l.src.path, l.line, l.col, "submodule-link", sub, "")
			}
			continue
		}
		if t := a.targets[i]; t != "" && !a.exists[t] {
			c.brokenLink(l, t, a)
		}
	}
	c.countSubmoduleLinks(subCount)
	return nil
}

// treeAnswers is what git's tree says of a batch of links' targets.
type treeAnswers struct {
	targets    []string          // each link's target, worked out once ("" for none)
	intoSub    map[*lnk]string   // the submodule a link points into (canon cannot look inside)
	exists     map[string]bool   // the targets git has
	folded     map[string]string // git's path of a target it has in another case
	pageExists map[string]bool   // TARGET.md that git has, for a target without an extension
	rootRel    map[string]string // a target read from the repository root instead
	rootExists map[string]bool   // those git has
}

// askTree works out each link's target and asks git's tree about them in
// a few lookups: which exist, in which case, and what a link names read
// with .md added or from the repository root.
func (c *checker) askTree(ls []*lnk) (*treeAnswers, error) {
	subs, err := c.in.Tree.Submodules(c.ctx)
	if err != nil {
		return nil, fmt.Errorf("read the submodules: %w", err)
	}
	var paths []string
	targets := make([]string, len(ls))
	intoSub := map[*lnk]string{}
	for i, l := range ls {
		t := resolve.LinkTarget(l.src.path, l.raw, c.in.Cfg.RepoURLs)
		targets[i] = t
		if t == "" {
			continue
		}
		if sub := submoduleOf(subs, t); sub != "" {
			intoSub[l] = sub // canon cannot look inside: not a broken link
			continue
		}
		paths = append(paths, t)
	}
	a := treeAnswers{targets: targets, intoSub: intoSub}
	a.exists, a.folded, err = c.in.Tree.Lookup(c.ctx, paths)
	if err != nil {
		return nil, fmt.Errorf("look up link targets in git: %w", err)
	}
	// A link written from the repository root (_kano/backlog/... three
	// folders down) is broken on GitHub too; the path from the linking
	// file is the one answer when it exists.
	a.rootRel = map[string]string{}
	var askRoot []string
	for i, l := range ls {
		t := a.targets[i]
		if t == "" || a.exists[t] || a.folded[t] != "" || a.intoSub[l] != "" || strings.HasPrefix(l.raw, "/") || strings.HasPrefix(l.raw, "../") || strings.HasPrefix(l.raw, "./") || !strings.Contains(l.src.path, "/") {
			continue
		}
		if r := resolve.LinkTarget("root.md", l.raw, c.in.Cfg.RepoURLs); r != "" && r != t {
			a.rootRel[t] = r
			askRoot = append(askRoot, r)
		}
	}
	// ./eip-150 for eip-150.md: GitHub adds no .md (a site may; there the
	// link resolved to the page, below).
	var askPage []string
	for i, l := range ls {
		if t := a.targets[i]; t != "" && !a.exists[t] && a.folded[t] == "" && path.Ext(t) == "" && l.status != resolve.StatusOK {
			askPage = append(askPage, t+".md")
		}
	}
	a.pageExists = map[string]bool{}
	if len(askPage) > 0 {
		if a.pageExists, _, err = c.in.Tree.Lookup(c.ctx, askPage); err != nil {
			return nil, fmt.Errorf("look up link targets in git: %w", err)
		}
	}
	a.rootExists = map[string]bool{}
	if len(askRoot) > 0 {
		if a.rootExists, _, err = c.in.Tree.Lookup(c.ctx, askRoot); err != nil {
			return nil, fmt.Errorf("look up link targets in git: %w", err)
		}
	}
	return &a, nil
}

// brokenLink reports a link whose target t git's tree does not have,
// saying what the link may have meant, with a fix where one is sure.
func (c *checker) brokenLink(l *lnk, t string, a *treeAnswers) {
	msg := fmt.Sprintf("link target %s does not exist in git's tree", l.raw)
	var fix *index.Fix
	if l.status == resolve.StatusOK && l.dstPath == t+".md" {
		return // a site's page at its path without .md (config SitePages)
	}
	if c.in.Cfg.PageAddresses() && a.folded[t] == "" && (path.Ext(t) == "" || path.Ext(t) == ".html" || strings.HasPrefix(l.raw, "/") && !scan.IsMarkdown(t)) {
		// a page's address on the site (Hugo's /functions/len/, a render
		// hook's g; DocFX's /dotnet/api/system.string, from the site's
		// root; Middleman's ask-for-help.html): canon does not resolve
		// them; a file's relative path with its extension is checked,
		// and a Markdown file's always
		return
	}
	page := a.pageExists[t+".md"]
	switch r := a.rootRel[t]; {
	case page:
		want := withMD(l.raw)
		msg += fmt.Sprintf("; GitHub adds no .md to a link: did you mean %s? (a site generator serves the page without it)", want)
		// A fix's New is the path the link is to name, not yet
		// written as a destination (check --fix escapes it).
		if p, err := url.PathUnescape(withMD(strings.SplitN(l.raw, "?", 2)[0])); err == nil && l.form == resolve.FormMD {
			fix = &index.Fix{Path: l.src.path, Line: l.line, Col: l.col, Old: l.raw, New: p}
		}
	case a.folded[t] != "":
		want := relTo(l.src.path, a.folded[t])
		msg += fmt.Sprintf("; did you mean %s? (git's case is what GitHub serves)", want)
		if l.form != resolve.FormRef && !strings.HasPrefix(l.raw, "/") {
			fix = &index.Fix{Path: l.src.path, Line: l.line, Col: l.col, Old: l.raw, New: want}
		}
	case r != "" && a.rootExists[r]:
		want := relTo(l.src.path, r)
		msg += fmt.Sprintf("; did you mean %s? (it is written from the repository root; a link is relative to the file it is in)", want)
		if l.form != resolve.FormRef {
			fix = &index.Fix{Path: l.src.path, Line: l.line, Col: l.col, Old: l.raw, New: want}
		}
	case c.in.Tree.OnDisk(t):
		msg += "; the file is not tracked: git add it, or fix the link"
	default:
		msg += "; fix the path"
	}
	c.addFix(l.src.path, l.line, l.col, "broken-link", l.raw, msg, fix)
}

// countSubmoduleLinks words the one warning per document and submodule,
// saying how many of its links point inside the submodule.
func (c *checker) countSubmoduleLinks(subCount map[[2]string]int) {
	for i := range c.findings {
		f := &c.findings[i]
		if f.Rule != "submodule-link" || f.Message != "" {
			continue
		}
		n := subCount[[2]string{f.Path, f.Target}]
		what := "1 link points"
		if n > 1 {
			what = fmt.Sprintf("%d links point", n)
		}
		f.Message = fmt.Sprintf("%s inside %s, a git submodule; canon does not look inside submodules, so they are not checked", what, f.Target)
	}
}

// submoduleOf is the submodule a repo path lies in ("" for none).
func submoduleOf(subs []string, p string) string {
	for _, s := range subs {
		if p == s || strings.HasPrefix(p, s+"/") {
			return s
		}
	}
	return ""
}

// relTo writes target relative to the folder of src, as a link would.
func relTo(src, target string) string {
	from := strings.Split(src, "/")
	from = from[:len(from)-1]
	to := strings.Split(target, "/")
	i := 0
	for i < len(from) && i < len(to)-1 && from[i] == to[i] {
		i++
	}
	return strings.Repeat("../", len(from)-i) + strings.Join(to[i:], "/")
}

// anchors checks #fragments against the target's headings, slugged as
// GitHub does (with the -1, -2 suffixes for repeated headings).
func (c *checker) anchors(ls []*lnk) error {
	targets := map[int64]bool{}
	for _, l := range ls {
		targets[c.anchorDoc(l)] = true
	}
	ids := make([]index.DocID, 0, len(targets))
	for id := range targets {
		ids = append(ids, index.DocID(id))
	}
	slugs, err := checkreads.FragmentsOf(c.ctx, c.q, ids)
	if err != nil {
		return err
	}
	for _, l := range ls {
		set := slugs[index.DocID(c.anchorDoc(l))]
		a := l.anchor
		if strings.HasPrefix(a, "^") || isLineAnchor(a) {
			continue // a block reference, or a line link on GitHub
		}
		if (a == "readme" || a == "files") && l.form == resolve.FormMD && resolve.FolderLink(l.src.path, l.raw, c.in.Cfg.RepoURLs) {
			continue // the anchors of GitHub's folder page: its README, its listing
		}
		want := a
		if l.form == resolve.FormWiki || l.form == resolve.FormEmbed || l.form == resolve.FormRef {
			want = markdown.Slug(a) // wiki anchors name the heading text
		}
		if set[want] {
			continue
		}
		where := "this document"
		if l.status == resolve.StatusOK {
			where = l.dstPath
		}
		if low := strings.ToLower(want); low != want && set[low] {
			// GitHub's page script finds a heading whatever the case of
			// the fragment (#ID reaches the heading "ID"); other renderers
			// match ids exactly. So a warning, with the fix.
			var fix *index.Fix
			if l.form == resolve.FormMD || l.form == resolve.FormImage {
				fix = &index.Fix{Path: l.src.path, Line: l.line, Col: l.col, Old: "#" + a, New: "#" + low}
			}
			c.addFix(l.src.path, l.line, l.col, "anchor-case", l.raw+"#"+l.anchor,
				fmt.Sprintf("#%s reaches #%s on GitHub, which ignores case, but not in other renderers; write #%s", a, low, low), fix)
			continue
		}
		msg := fmt.Sprintf("%s has no heading #%s", where, a)
		var fix *index.Fix
		if s := markdown.Slug(a); s != want || set[strings.ToLower(want)] {
			if set[strings.ToLower(want)] {
				s = strings.ToLower(want)
			}
			if set[s] {
				msg += fmt.Sprintf("; did you mean #%s?", shown(s, a))
				if l.form == resolve.FormMD || l.form == resolve.FormImage {
					fix = &index.Fix{Path: l.src.path, Line: l.line, Col: l.col, Old: "#" + a, New: "#" + s}
				}
			}
		} else if near := nearAll(want, slices.Sorted(maps.Keys(set))); len(near) == 1 {
			// "#prometheus-alertmanager" for the heading "Prometheus +
			// alertmanager" (GitHub: #prometheus--alertmanager); with two
			// such headings, which is meant is not plain: no fix.
			msg += fmt.Sprintf("; did you mean #%s?", shown(near[0], a))
			if l.form == resolve.FormMD || l.form == resolve.FormImage {
				fix = &index.Fix{Path: l.src.path, Line: l.line, Col: l.col, Old: "#" + a, New: "#" + near[0]}
			}
		} else if len(near) > 1 {
			for i := range near {
				near[i] = shown(near[i], a)
			}
			msg += "; did you mean #" + strings.Join(near, " or #") + "?"
		} else if len(set) > 0 {
			msg += "; its headings are " + listSlugs(set)
		}
		c.addFix(l.src.path, l.line, l.col, "broken-anchor", l.raw+"#"+l.anchor, msg, fix)
	}
	return nil
}

func (c *checker) anchorDoc(l *lnk) int64 {
	if l.status == resolve.StatusSelf {
		return l.src.id
	}
	return l.dst
}

func isLineAnchor(a string) bool {
	if len(a) < 2 || a[0] != 'L' {
		return false
	}
	for _, r := range a[1:] {
		if (r < '0' || r > '9') && r != '-' && r != 'L' && r != 'C' {
			return false
		}
	}
	return true
}

// shown writes a suggested anchor so that a reader sees how it differs
// from the one written (a): when the two look alike, each invisible
// character of it (a combining mark, a format character such as a
// zero-width joiner) is written as its code point. GitHub's slug of the
// heading "İlgili" is i, U+0307, lgili, which looked the same as the
// #ilgili written (issue 43).
func shown(s, a string) string {
	if strings.IndexFunc(s, invisible) < 0 || strings.Map(dropInvisible, s) != strings.Map(dropInvisible, a) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if invisible(r) {
			fmt.Fprintf(&b, "<U+%04X>", r)
		} else {
			b.WriteRune(r)
		}
	}
	return b.String() + " (" + invisibleNames(s) + " invisible)"
}

func invisible(r rune) bool { return unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf) }

func dropInvisible(r rune) rune {
	if invisible(r) {
		return -1
	}
	return r
}

// invisibleNames lists the invisible characters of s by code point, with
// "is" or "are" after them.
func invisibleNames(s string) string {
	var out []string
	for _, r := range s {
		if n := fmt.Sprintf("U+%04X", r); invisible(r) && !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	if len(out) == 1 {
		return out[0] + " is"
	}
	return strings.Join(out, ", ") + " are"
}

func listSlugs(set map[string]bool) string {
	var s []string
	for _, k := range slices.Sorted(maps.Keys(set)) {
		s = append(s, "#"+k)
	}
	if len(s) > 8 {
		s = append(s[:8], "…")
	}
	return strings.Join(s, ", ")
}

// graphRules checks one resolved frontmatter edge.
func (c *checker) graphRules(l *lnk) {
	src := l.src
	if l.dst == src.id {
		c.addField(src.path, l.line, l.col, l.field, l.raw, "self-reference", l.field+" "+l.raw, fmt.Sprintf("%s: %s points at this document itself; remove it", l.field, l.raw))
		return
	}
	switch l.typ {
	case "parent":
		allowed, ok := c.in.Cfg.Check.Parents[src.kind]
		if !ok {
			return
		}
		allowed = c.parentKinds(src.path, allowed)
		if slices.Contains(allowed, l.dstKind) {
			return
		}
		c.addField(src.path, l.line, l.col, l.field, l.raw, "parent-kind", l.raw+" "+l.dstKind, fmt.Sprintf("the parent of %s must be %s, but %s is %s; choose a parent of the right kind",
			article(src.kind), article(strings.Join(allowed, " or ")), l.dstID, article(l.dstKind)))
	case "blocks", "blocked_by":
		c.symmetry(l)
	}
}

// parentKinds adapts the allowed parent kinds to the namespace's process:
// a kind its work item types lack is skipped over, to that kind's own
// parents (a Jira-style process has no feature, so a story's parent is an
// epic).
func (c *checker) parentKinds(path string, allowed []string) []string {
	_, ns := c.in.Cfg.Namespaces.Of(path)
	if ns == nil || len(ns.Types) == 0 {
		return allowed
	}
	has := map[string]bool{}
	for _, t := range ns.Types {
		kind := strings.ToLower(t)
		if k, ok := c.in.Cfg.Kinds[kind]; ok {
			kind = k
		}
		has[kind] = true
	}
	var out []string
	seen := map[string]bool{}
	var add func(kinds []string, depth int)
	add = func(kinds []string, depth int) {
		for _, k := range kinds {
			if seen[k] || depth > 8 {
				continue
			}
			seen[k] = true
			if has[k] {
				out = append(out, k)
				continue
			}
			add(c.in.Cfg.Check.Parents[k], depth+1)
		}
	}
	add(allowed, 0)
	return out
}

// symmetry warns when A blocks B but B does not say it is blocked by A (and
// the other way round).
func (c *checker) symmetry(l *lnk) {
	inverse := map[string]string{"blocks": "blocked_by", "blocked_by": "blocks"}[l.typ]
	if !c.hasEdge(l.dst, l.src.id, inverse) {
		c.addFix(l.src.path, l.line, l.col, "asymmetric-block", l.typ+" "+l.raw, fmt.Sprintf("%s %s %s, but %s does not list %s in %s; add it there",
			l.src.displayID, strings.ReplaceAll(l.typ, "_", " "), l.dstID, l.dstID, l.src.displayID, inverse), c.reverseEdge(l, inverse))
	}
}

// reverseEdge is the fix of an asymmetric block: the source's id appended
// to the target's list of the inverse type, in the field the target
// already uses for it (or a new top-level one when it has none and no
// links: mapping, where the right place would be a guess).
func (c *checker) reverseEdge(l *lnk, inverse string) *index.Fix {
	if l.src.ident == "" || l.dstPath == "" {
		return nil
	}
	fm, ok, err := checkreads.FrontmatterOf(c.ctx, c.q, index.DocID(l.dst))
	if err != nil || !ok {
		return nil
	}
	var top map[string]json.RawMessage
	if json.Unmarshal([]byte(fm), &top) != nil {
		return nil
	}
	var fields []string // the configured fields of the inverse type, nested ones first
	for f, typ := range c.in.Cfg.Edges {
		if typ == inverse {
			fields = append(fields, f)
		}
	}
	sort.Slice(fields, func(i, j int) bool {
		if a, b := strings.Count(fields[i], "."), strings.Count(fields[j], "."); a != b {
			return a > b
		}
		return fields[i] < fields[j]
	})
	for _, f := range fields {
		parent, leaf, nested := strings.Cut(f, ".")
		if !nested {
			if _, ok := top[f]; ok {
				return &index.Fix{Path: l.dstPath, Field: f, Item: l.src.ident}
			}
			continue
		}
		var sub map[string]json.RawMessage
		if json.Unmarshal(top[parent], &sub) == nil {
			if _, ok := sub[leaf]; ok {
				return &index.Fix{Path: l.dstPath, Field: f, Item: l.src.ident}
			}
		}
	}
	for _, f := range fields {
		parent, _, nested := strings.Cut(f, ".")
		if nested {
			if _, ok := top[parent]; ok {
				return nil // a links: mapping without the field: where it goes is a guess
			}
		}
	}
	if _, ok := c.in.Cfg.Edges[inverse]; ok {
		return &index.Fix{Path: l.dstPath, Field: inverse, Item: l.src.ident}
	}
	return nil
}

// hasEdge reports a resolved edge src -type-> dst: from a set of every
// blocking edge when many documents are checked, else by one query.
func (c *checker) hasEdge(src, dst int64, typ string) bool {
	if len(c.docs) >= 200 && c.inverse == nil {
		c.inverse = map[index.DocEdge]bool{}
		err := docs.EachEdgeOf(c.ctx, c.q, []string{"blocks", "blocked_by"}, func(e index.DocEdge) error {
			c.inverse[e] = true
			return nil
		})
		if err != nil {
			c.inverse = nil // a partial set would invent missing edges: ask one by one
		}
	}
	if c.inverse != nil {
		return c.inverse[index.DocEdge{Src: index.DocID(src), Dst: index.DocID(dst), Type: typ}]
	}
	has, err := checkreads.HasEdge(c.ctx, c.q, index.DocID(src), index.DocID(dst), typ)
	return err != nil || has
}

// cycles follows each checked document's parent chain and reports a loop
// once, at the parent field of the checked document.
func (c *checker) cycles(all []*lnk) error {
	parents, err := c.parentMap()
	if err != nil {
		return err
	}
	for _, l := range all {
		if l.typ != "parent" || l.status != resolve.StatusOK || l.form != resolve.FormRef || l.src.linksOnly {
			continue
		}
		chain := []string{l.src.displayID, l.dstID}
		seen := map[int64]bool{l.src.id: true}
		cur := l.dst
		for steps := 0; steps < 1000 && cur != 0; steps++ {
			if seen[cur] {
				if cur == l.src.id {
					c.add(l.src.path, l.line, l.col, "parent-cycle", strings.Join(chain, " "),
						fmt.Sprintf("the parent chain loops: %s; break it by changing one parent", strings.Join(chain, " → ")))
				}
				break
			}
			seen[cur] = true
			next, err := parents.of(cur)
			if err != nil {
				return err
			}
			if next.id == 0 {
				break
			}
			chain = append(chain, next.display)
			cur = next.id
		}
	}
	return nil
}

type parentRef struct {
	id      int64
	display string
}

// parents answers "what is this document's first parent": from a map of
// every parent edge when many documents are checked (one query), or one
// query per step when few are (a commit's handful at 100k documents).
type parents struct {
	c   *checker
	all map[int64]parentRef
}

func (c *checker) parentMap() (*parents, error) {
	p := &parents{c: c}
	if len(c.docs) < 200 {
		return p, nil
	}
	edges, err := checkreads.ParentEdges(c.ctx, c.q)
	if err != nil {
		return nil, err
	}
	dsts := make([]int64, len(edges))
	for i, e := range edges {
		dsts[i] = int64(e.Dst)
	}
	ref, err := c.refs(dsts)
	if err != nil {
		return nil, err
	}
	p.all = map[int64]parentRef{}
	for _, e := range edges {
		ref, ok := ref(int64(e.Dst))
		if _, done := p.all[int64(e.Src)]; done || !ok {
			continue // the first parent that is a document
		}
		p.all[int64(e.Src)] = parentRef{id: int64(e.Dst), display: ref.ID}
	}
	return p, nil
}

func (p *parents) of(id int64) (parentRef, error) {
	if p.all != nil {
		return p.all[id], nil
	}
	n, ok, err := checkreads.FirstParent(p.c.ctx, p.c.q, index.DocID(id))
	if !ok {
		return parentRef{}, err
	}
	return parentRef{id: int64(n.Doc), display: n.ID}, nil
}

// article puts "a" or "an" before a kind.
func article(word string) string {
	if word != "" && strings.ContainsRune("aeiouAEIOU", rune(word[0])) {
		return "an " + word
	}
	return "a " + word
}

// templated reports a link target a template engine fills in: Hugo's
// shortcodes and Go templates ({{% eturl x %}}, {{ .Site.BaseURL }}),
// Liquid ({% link x.md %}), a placeholder in braces ({ADR_SLUG}.md).
func templated(raw string) bool {
	if strings.Contains(raw, "{{") || strings.Contains(raw, "{%") {
		return true
	}
	open := strings.IndexByte(raw, '{')
	return open >= 0 && strings.IndexByte(raw[open:], '}') > 1
}

// withMD writes a link destination with .md after its path, before its
// query or fragment.
func withMD(dest string) string {
	path, rest := dest, ""
	if i := strings.IndexAny(dest, "?#"); i >= 0 {
		path, rest = dest[:i], dest[i:]
	}
	return strings.TrimRight(path, "/") + ".md" + rest // multilingual/ is the page multilingual.md
}
