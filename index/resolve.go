package index

import (
	"net/url"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/canon-md/canon/index/config"
	"github.com/canon-md/canon/index/markdown"
)

// How references find documents.
//
// Every document is reachable under a few alias terms: its uid, its id, its
// path, its path without .md and its file stem. A link carries a lookup plan:
// the terms to try in order; the first term that names any document decides,
// and two or more documents there make the link ambiguous.
//
// Every link also carries a match key: the lower-cased last name it points at
// (an id, a uid or a file stem). A document's match keys are the same three
// things of its own. When documents come or go, only links whose match key is
// one of theirs can resolve differently, so an update re-resolves just those.

// Link statuses.
const (
	StatusOK        = "ok"
	StatusSelf      = "self" // a same-file anchor such as [x](#usage)
	StatusDangling  = "dangling"
	StatusAmbiguous = "ambiguous"
	StatusExternal  = "external" // a URL: recorded, not followed
	StatusFile      = "file"     // a link to a non-Markdown file or a folder
)

// Link forms.
const (
	FormRef   = "ref" // a frontmatter reference
	FormMD    = "md"
	FormImage = "image"
	FormWiki  = "wiki"
	FormEmbed = "embed"
	FormURL   = "url"
)

// EdgeReferences is the edge type of a body link to another document.
const EdgeReferences = "references"

func aliasTerms(d docIdentity) []string {
	terms := make([]string, 0, 5)
	if d.uid != "" {
		terms = append(terms, "uid:"+strings.ToLower(d.uid))
	}
	if d.ident != "" {
		terms = append(terms, "id:"+strings.ToLower(d.ident))
	}
	terms = append(terms, "stem:"+strings.ToLower(markdown.Stem(d.path)))
	if n := fileNumber(d.path); n != "" {
		terms = append(terms, "num:"+n)
	}
	if n := nameOfFile(d); n != "" {
		terms = append(terms, "num:"+n) // adr-004 of adr-004-module-loading.md, task-97 of "task-97 - Fix-x.md"
	}
	if name := markdown.DisplayStem(d.path); name != markdown.Stem(d.path) {
		terms = append(terms, "dir:"+strings.ToLower(name)) // canon show 2400-node-swap: its folder's page
	}
	for _, k := range d.oldNames() {
		terms = append(terms, "was:"+k)
	}
	if t := TitleKey(d.title); t != "" {
		terms = append(terms, "title:"+t)
	}
	return terms
}

// TitleKey is the name a title gives its document to a reference that
// names a page by its title (Just the Docs' parent: Getting Started),
// lower-cased, its spaces one; "" for a title no reference can name that
// way (one with a slash reads as a path).
func TitleKey(title string) string {
	t := strings.ToLower(strings.Join(strings.Fields(title), " "))
	if strings.Contains(t, "/") {
		return ""
	}
	return t
}

// oldNames are the names an old prefix gives the document (task-4 for
// BACK-4 when config.Prefixes maps task to back), and its bare number (4),
// lower-cased: the tool names a task by its number (Backlog.md). A
// document of a prefix in config.BareNumbers has its bare number too; one
// without an id is named by its file stem (eip-2718.md: 2718).
func (d docIdentity) oldNames() []string {
	if len(d.olds) == 0 {
		return nil
	}
	id := d.ident
	if id == "" {
		id = markdown.Stem(d.path)
	}
	p, n, ok := PrefixNumber(id)
	if !ok {
		return nil
	}
	if _, named := d.olds[p]; !named {
		return nil
	}
	n = strings.ToLower(n)
	out := []string{n}
	for _, old := range d.olds[p] {
		out = append(out, old+"-"+n)
	}
	return out
}

// oldPrefixes turns config.Prefixes (old → new) into new → the old ones,
// sorted, with each of config.BareNumbers (bare) a prefix whose numbers
// alone name its documents.
func oldPrefixes(m map[string]string, bare []string) map[string][]string {
	if len(m) == 0 && len(bare) == 0 {
		return nil
	}
	out := map[string][]string{}
	for _, p := range bare {
		out[p] = nil
	}
	for old, now := range m {
		out[now] = append(out[now], old)
	}
	for _, olds := range out {
		sort.Strings(olds)
	}
	return out
}

// OldPrefixIDs are the ids a reference names through prefixes (ADR-0051),
// lower-cased: back-4 for task-4 when prefixes maps task to back, and for
// a bare 4 the number under each prefix the map leads to or bare lists
// (config.BareNumbers), sorted. It is oldNames seen from the reference;
// resolution tries it last, after the reference's own id, uid, path and
// stem.
func OldPrefixIDs(ref string, prefixes map[string]string, bare []string) []string {
	ref = strings.ToLower(strings.TrimSpace(ref))
	if p, n, ok := PrefixNumber(ref); ok {
		if to := prefixes[p]; to != "" {
			return []string{to + "-" + n}
		}
		return nil
	}
	if !isNumber(ref) {
		return nil
	}
	var out []string
	for now := range oldPrefixes(prefixes, bare) {
		out = append(out, now+"-"+ref)
	}
	sort.Strings(out)
	return out
}

// PrefixNumber splits an id shaped PREFIX-NUMBER (task-4, BACK-355.01,
// KB-TSK-0007) at the last dash: its prefix lower-cased
// (config.IsIDPrefix) and its number as written (digits, dots between).
func PrefixNumber(s string) (prefix, number string, ok bool) {
	i := strings.LastIndexByte(s, '-')
	if i <= 0 || !isNumber(s[i+1:]) || !config.IsIDPrefix(s[:i]) {
		return "", "", false
	}
	return strings.ToLower(s[:i]), s[i+1:], true
}

// fileNumber is the number a file name starts with, as written, when a
// dash or underscore follows it ("0097" of 0097-storage-engine.md, "0013.1"
// of 0013.1-bridge.md): ADR tools name decisions so, and frontmatter
// refers to them by it (superseded_by: [0097, 0097.1]). "" when none.
func fileNumber(p string) string {
	stem := markdown.Stem(p)
	i := 0
	for i < len(stem) && (stem[i] >= '0' && stem[i] <= '9' || stem[i] == '.' && i > 0 && stem[i-1] != '.') {
		i++
	}
	if i == 0 || i == len(stem) || stem[i] != '-' && stem[i] != '_' || stem[i-1] == '.' {
		return ""
	}
	return stem[:i]
}

// recordName is the name a decision record's file name starts with when
// the record has no id (adr-004 of adr-004-module-loading.md, as its
// neighbours link it: [ADR-002](adr-002-configuration.md)), lower-cased;
// "" for any other file name.
func recordName(p string) string {
	stem := markdown.Stem(p)
	if !markdown.IsADRStem(stem) {
		return ""
	}
	if len(stem) < 5 || stem[3] != '-' {
		return "" // adr_12, adr0007: no reference names them (PrefixNumber wants a dash)
	}
	n := fileNumber(stem[4:] + "-") // 004, 0013.1
	if n == "" {
		return ""
	}
	return strings.ToLower(stem[:4+len(n)])
}

// nameOfFile is the name the file name gives a document without an id
// (recordName, else headName); "" for one with an id, which names it.
func nameOfFile(d docIdentity) string {
	if d.ident != "" {
		return ""
	}
	if n := recordName(d.path); n != "" {
		return n
	}
	return headName(d.path)
}

// headName is the id a file name starts with before " - " and its title
// (Backlog.md: "task-97 - Fix-missing-edges.md", whose frontmatter, when
// it has one, says id: task-97), lower-cased; "" for any other name.
func headName(p string) string {
	head, _, ok := strings.Cut(markdown.Stem(p), " - ")
	if !ok {
		return ""
	}
	if _, _, ok := PrefixNumber(head); !ok {
		return ""
	}
	return strings.ToLower(head)
}

// isNumber reports a reference that is only a number as a file name starts
// with: digits, and dots between them (0097, 0013.1).
func isNumber(s string) bool {
	return s != "" && fileNumber(s+"-") == s
}

// matchKeys are the names by which links can point at a document.
func matchKeys(d docIdentity) []string {
	keys := []string{strings.ToLower(markdown.Stem(d.path))}
	if keys[0] == "index" {
		keys = append(keys, folderKey) // the page of its folder (folderPlan)
	}
	if dir := path.Dir(d.path); (keys[0] == "index" || keys[0] == folderKey) && dir != "." {
		keys = append(keys, strings.ToLower(path.Base(dir))) // a link to the folder without its slash (mdPlan)
	}
	if n := nameOfFile(d); n != "" {
		keys = append(keys, n) // a ref that is its file's name (refPlan's num:)
	}
	if n := fileNumber(d.path); n != "" {
		keys = append(keys, n) // a ref that is its number (refPlan's match)
	}
	if d.ident != "" {
		keys = append(keys, strings.ToLower(d.ident))
	}
	if d.uid != "" {
		keys = append(keys, strings.ToLower(d.uid))
	}
	if t := TitleKey(d.title); t != "" {
		keys = append(keys, t) // a ref that names it by its title (refPlan's title:)
	}
	return append(keys, d.oldNames()...) // a ref an old prefix writes (refPlan's was:)
}

type docIdentity struct {
	path, ident, uid string
	title            string              // what TitleKey names it by
	olds             map[string][]string // see writer.olds
}

// link is one outgoing link of a document before it is stored.
type link struct {
	typ, field, form, raw, anchor string
	line, col                     int
	plan                          []string // alias terms to try, in order
	uidPrefix                     string   // from ID@uidprefix: keep only uids with this prefix
	match                         string
	status                        string // preset for links that need no lookup
	orElse                        string // the status when the plan finds nothing ("": dangling)
}

// docLinks lists a document's links in a fixed order: frontmatter edges,
// then body links, each in source order.
func docLinks(srcPath string, d *markdown.Document, pl planner) []link {
	out := make([]link, 0, len(d.Refs)+len(d.Body.Links))
	for _, r := range d.Refs {
		out = append(out, refLink(srcPath, r, pl))
	}
	for _, bl := range d.Body.Links {
		out = append(out, bodyLink(srcPath, bl, pl))
	}
	return out
}

func refLink(srcPath string, r markdown.Ref, pl planner) link {
	l := link{typ: r.Type, field: r.Field, form: FormRef, raw: r.Raw, line: r.Line, col: r.Col}
	raw := strings.TrimSpace(r.Raw)
	if strings.HasPrefix(raw, "[[") && strings.HasSuffix(raw, "]]") {
		_, l.anchor = splitWiki(raw[2 : len(raw)-2])
	} else if !hasScheme(raw) {
		_, l.anchor, _ = strings.Cut(raw, "#")
	}
	plan(&l, srcPath, pl)
	return l
}

func bodyLink(srcPath string, bl markdown.Link, pl planner) link {
	l := link{typ: EdgeReferences, line: bl.Line, col: bl.Col, raw: bl.Dest, anchor: bl.Anchor}
	if bl.Rel != "" {
		l.typ = bl.Rel // Superseded by [2. Use X](0002-use-x.md)
	}
	switch bl.Form {
	case markdown.FormAutolink:
		l.form = FormURL
	case markdown.FormWiki:
		l.form = FormWiki
	case markdown.FormEmbed:
		l.form = FormEmbed
	case markdown.FormImage:
		l.form = FormImage
	default:
		l.form = FormMD
	}
	plan(&l, srcPath, pl)
	return l
}

// plan works out from a link's form and raw text (and the path of the file
// it is written in) where to look for its target. It is a pure function of
// those and of pl (the repository's own web addresses, its site's pages),
// so an update can plan a stored link again, as after a rename.
func plan(l *link, srcPath string, pl planner) {
	l.plan, l.uidPrefix, l.match, l.status, l.orElse = nil, "", "", "", ""
	raw := strings.TrimSpace(l.raw)
	if p, ok := pl.urls.repoPath(raw); ok && l.form != FormWiki && l.form != FormEmbed {
		urlPlan(l, srcPath, p) // an address of the repository's own file, in any form
		return
	}
	switch l.form {
	case FormURL:
		l.status = StatusExternal
	case FormWiki, FormEmbed:
		if raw == "" {
			l.status = StatusSelf
			return
		}
		wikiPlan(l, srcPath, raw)
	case FormMD, FormImage:
		mdPlan(l, srcPath, raw, pl)
	case FormRef:
		refPlan(l, srcPath, raw)
	}
}

// RefNamesAFile reports whether a frontmatter reference (without its
// #anchor) is a path to a folder or to a file that is not a document
// (relates_to: ../references/ or ../reports/run.json), which is no
// reference to check, as a Markdown link to it is not.
func RefNamesAFile(target string) bool {
	target = slashes(target)
	return strings.Contains(target, "/") && !strings.Contains(target, " ") &&
		(strings.HasSuffix(target, "/") || fileExt(target))
}

// fileExt reports a name that ends in a file's extension other than .md:
// at most four characters after the dot, not all digits (task-1.2 and
// v2.0 are names, not files), no space.
func fileExt(name string) bool {
	ext := path.Ext(name)
	return ext != "" && !strings.EqualFold(ext, ".md") && !strings.Contains(ext, " ") && len(ext) <= 5 && !isDigits(ext[1:])
}

func refPlan(l *link, srcPath, raw string) {
	if strings.HasPrefix(raw, "[[") && strings.HasSuffix(raw, "]]") {
		target, _ := splitWiki(raw[2 : len(raw)-2])
		if target == "" {
			l.status = StatusSelf
			return
		}
		wikiPlan(l, srcPath, target)
		return
	}
	if hasScheme(raw) {
		l.status = StatusExternal
		return
	}
	if at := strings.LastIndexByte(raw, '@'); at > 0 && at < len(raw)-1 && !strings.ContainsAny(raw, "/ ") {
		id := raw[:at]
		l.uidPrefix = strings.ToLower(raw[at+1:])
		l.plan = []string{"id:" + strings.ToLower(id)}
		l.match = strings.ToLower(id)
		return
	}
	target, _, _ := strings.Cut(raw, "#")
	target = slashes(target)
	if RefNamesAFile(target) {
		l.status = StatusFile
		return
	}
	l.plan = []string{"uid:" + strings.ToLower(target), "id:" + strings.ToLower(target)}
	if strings.Contains(target, "/") || IsMarkdown(target) {
		if p, ok := joinRepo("", target); ok {
			l.plan = append(l.plan, "path:"+p)
		}
		if p, ok := joinRepo(path.Dir(srcPath), target); ok {
			l.plan = append(l.plan, "path:"+p)
		}
	}
	l.plan = append(l.plan, "stem:"+strings.ToLower(markdown.Stem(target)))
	l.match = strings.ToLower(markdown.Stem(target))
	if isNumber(target) {
		l.plan = append(l.plan, "num:"+target) // 0097: the file 0097-….md
	}
	_, _, prefixed := PrefixNumber(target)
	if prefixed && !strings.Contains(target, "/") {
		// adr-004: the record adr-004-module-loading.md (recordName);
		// task-97: "task-97 - Fix-x.md" without frontmatter (headName)
		l.plan = append(l.plan, "num:"+l.match)
	}
	if prefixed || isNumber(target) {
		l.plan = append(l.plan, "was:"+l.match) // task-4 or 4: BACK-4 when task was back's prefix
		return                                  // an id, not a title
	}
	if t := TitleKey(target); t != "" && t == l.match {
		// Last: the page whose title it is (Just the Docs, MADR's site);
		// its match key is the title's, so a retitled page re-resolves it.
		l.plan = append(l.plan, "title:"+t)
	}
}

func mdPlan(l *link, srcPath, dest string, pl planner) {
	if dest == "" || dest[0] == '?' {
		l.status = StatusSelf // [setup](?plain=1#setup): this page, with a query
		return
	}
	if hasScheme(dest) || strings.HasPrefix(dest, "//") {
		l.status = StatusExternal
		return
	}
	p, ok := mdPath(srcPath, dest)
	switch {
	case !ok && p == outOfRepo:
		l.status = StatusDangling // it leaves the repository
	case !ok && p == onGitHub:
		l.status = StatusExternal // ../../wiki from the root (see joinRepo)
	case !ok && l.form == FormMD:
		folderPlan(l, srcPath, "") // the repository's root folder: "/", "docs/.."
	case !ok:
		l.status = StatusFile
	case p == srcPath:
		l.status = StatusSelf
	case l.form == FormMD && endsInSlash(dest):
		folderPlan(l, srcPath, p) // docs/adr/, .github/
		if l.status == "" && pl.pages && p != "" {
			// a site's page (Jekyll's pretty permalinks, Docusaurus): ./b/ is b.md
			// where no folder has a page there
			l.match = strings.ToLower(path.Base(p))
			l.plan = append(l.plan, "pathnoext:"+strings.ToLower(p))
		}
	case l.form == FormMD && path.Ext(p) == "":
		// docs/adr: a folder's page. Where the repository is a site that
		// serves a page at its path without .md (Jekyll, Docusaurus),
		// ./eip-150 is that page when no folder has a page there; GitHub
		// serves none, and canon check says so elsewhere.
		folderPlan(l, srcPath, p)
		if l.status == "" {
			l.match = strings.ToLower(path.Base(p))
			if pl.pages {
				l.plan = append(l.plan, "pathnoext:"+strings.ToLower(p))
			}
		}
	case !IsMarkdown(p) || l.form == FormImage:
		l.status = StatusFile
	default:
		l.plan = []string{"path:" + p}
		l.match = strings.ToLower(markdown.Stem(p))
	}
}

// folderPlan plans a link to a folder (dir, "" for the repository's root):
// GitHub shows the folder's README below its listing, so the link names
// that README when the folder has one (README.md, readme.md, any case), else
// its index.md (a documentation site's page for the folder, and what a
// README that is a symbolic link to index.md shows), and is a link to a
// folder otherwise (StatusFile: canon check looks for it in git's tree). A
// folder's page linking to its own folder links to itself. The match key is
// folderKey, which README and index documents have (matchKeys); a link
// without a trailing slash, which may name a page of that name as well,
// has the folder's name, which they have too.
func folderPlan(l *link, srcPath, dir string) {
	prefix := ""
	if dir != "" {
		prefix = strings.ToLower(dir) + "/"
	}
	if self := strings.ToLower(trimMD(srcPath)); self == prefix+"readme" || self == prefix+"index" {
		l.status = StatusSelf
		return
	}
	l.plan = []string{"pathnoext:" + prefix + "readme", "pathnoext:" + prefix + "index"}
	l.match, l.orElse = folderKey, StatusFile
}

// endsInSlash reports a link destination written as a folder (docs/,
// v2.0/, docs/?x=1), its query aside.
func endsInSlash(dest string) bool {
	dest, _, _ = strings.Cut(dest, "?")
	return strings.HasSuffix(dest, "/")
}

// FolderLink reports whether a Markdown link (raw, written in srcPath) is
// one to a folder (folderPlan), whatever it resolved to; an address under
// one of urls (config.RepoURLs) as the link it stands for (a tree/ page).
func FolderLink(srcPath, raw string, urls []string) bool {
	l := link{form: FormMD, raw: repoURLs(urls).dest(raw)}
	plan(&l, srcPath, planner{})
	return l.orElse == StatusFile // only folderPlan falls back to a file
}

// folderKey is the match key of links to folders (folderPlan).
const folderKey = "readme"

// mdPath is the repo path of a relative or root-relative link destination.
func mdPath(srcPath, dest string) (string, bool) {
	if un, err := url.PathUnescape(dest); err == nil {
		dest = un
	}
	if i := strings.IndexByte(dest, '?'); i >= 0 {
		dest = dest[:i]
	}
	dest = slashes(dest)
	base := path.Dir(srcPath)
	if strings.HasPrefix(dest, "/") {
		base = ""
	}
	return joinRepo(base, dest)
}

// wikiPlan resolves like Obsidian: a path from the repository root (with or
// without .md), else the file stem without case, else an id.
func wikiPlan(l *link, srcPath, target string) {
	target = slashes(strings.TrimSpace(target))
	if fileExt(target) {
		l.status = StatusFile // ![[diagram.png]], [[report.pdf]]
		return
	}
	stem := strings.ToLower(markdown.Stem(target))
	if strings.Contains(target, "/") {
		if p, ok := joinRepo("", target); ok {
			l.plan = append(l.plan, "pathnoext:"+strings.ToLower(trimMD(p)))
		}
		if p, ok := joinRepo(path.Dir(srcPath), target); ok {
			l.plan = append(l.plan, "pathnoext:"+strings.ToLower(trimMD(p)))
		}
	}
	l.plan = append(l.plan, "stem:"+stem, "id:"+strings.ToLower(target))
	l.match = stem
}

func isDigits(s string) bool {
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return s != ""
}

// splitWiki splits "target#Heading|alias" into target and anchor.
func splitWiki(inner string) (target, anchor string) {
	if i := strings.IndexByte(inner, '|'); i >= 0 {
		inner = inner[:i]
	}
	target, anchor, _ = strings.Cut(inner, "#")
	return strings.TrimSpace(target), strings.TrimSpace(anchor)
}

func hasScheme(s string) bool {
	i := strings.IndexByte(s, ':')
	if i < 2 { // "C:" is a Windows drive, not a scheme
		return false
	}
	for j := 0; j < i; j++ {
		c := s[j]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || j > 0 && (c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.')) {
			return false
		}
	}
	return true
}

// slashes turns Windows separators into slashes.
func slashes(p string) string { return strings.ReplaceAll(p, `\`, "/") }

func trimMD(p string) string {
	if IsMarkdown(p) {
		return p[:len(p)-3]
	}
	return p
}

// Where joinRepo says a target leads when it is not a path in the
// repository (its first result with ok false).
const (
	repoRoot  = ""           // the repository's root folder itself
	outOfRepo = "\x00out"    // above the root, where GitHub serves nothing
	onGitHub  = "\x00github" // the repository's own pages on GitHub, or another repository's
)

// gitHubPages are the pages GitHub serves under /OWNER/REPO/ besides the
// files: where ../../wiki from the root leads.
var gitHubPages = map[string]bool{
	"wiki": true, "issues": true, "pulls": true, "pull": true, "releases": true, "actions": true,
	"discussions": true, "projects": true, "security": true, "pulse": true, "graphs": true,
	"network": true, "tags": true, "branches": true, "commits": true, "commit": true,
	"compare": true, "labels": true, "milestones": true, "blob": true, "tree": true, "raw": true,
	"blame": true, "stargazers": true, "watchers": true, "forks": true, "contributors": true,
	"community": true, "packages": true, "deployments": true, "activity": true, "archive": true,
}

// joinRepo joins a relative target onto a repo folder and cleans it; ok is
// false when the result is not a path inside the repository, and the path
// is then repoRoot, outOfRepo or onGitHub. GitHub shows a file at
// /OWNER/REPO/blob/BRANCH/PATH, so from the root ../ is blob/ (nothing),
// ../../ the repository's pages (../../wiki, ../../issues), ../../../ the
// owner's other repositories.
func joinRepo(base, target string) (string, bool) {
	p := path.Clean(path.Join("/", base, target))
	// path.Join with a leading "/" already clamps "..", so detect escapes by
	// counting: a target that climbs above the root is not in the repo.
	depth, lowest, after := 0, 0, ""
	if base != "" && base != "." {
		depth = strings.Count(base, "/") + 1
	}
	for _, seg := range strings.Split(strings.TrimPrefix(target, "/"), "/") {
		switch seg {
		case "..":
			depth--
			if depth < lowest {
				lowest, after = depth, ""
			}
		case ".", "":
		default:
			if depth == lowest && after == "" {
				after = seg
			}
			depth++
		}
	}
	switch {
	case lowest <= -3 || lowest == -2 && gitHubPages[after]:
		return onGitHub, false
	case lowest < 0:
		return outOfRepo, false
	case p == "/":
		return repoRoot, false
	}
	return p[1:], true
}

// aliasDoc is a document found under an alias term.
type aliasDoc struct {
	id   int64
	uid  string
	path string
}

// stored turns a lookup term into the alias term that is stored. Path
// terms are not stored: every path has its file stem, so "path:P" is the
// documents under the stem of P whose path is P, and "pathnoext:P" those
// whose lower-cased path without .md is P. That keeps the alias table to
// three or four short rows a document.
func stored(term string) (alias string, keep func(path string) bool) {
	switch {
	case strings.HasPrefix(term, "path:"):
		p := term[len("path:"):]
		return "stem:" + strings.ToLower(markdown.Stem(p)), func(path string) bool { return path == p }
	case strings.HasPrefix(term, "pathnoext:"):
		p := term[len("pathnoext:"):]
		return "stem:" + strings.ToLower(markdown.Stem(p)), func(path string) bool { return strings.ToLower(trimMD(path)) == p }
	}
	return term, nil
}

func filterDocs(docs []aliasDoc, keep func(string) bool) []aliasDoc {
	if keep == nil {
		return docs
	}
	var out []aliasDoc
	for _, d := range docs {
		if keep(d.path) {
			out = append(out, d)
		}
	}
	return out
}

// aliasSource looks up alias terms. The full build answers from memory, an
// update from the database; both run the same resolution below.
type aliasSource interface {
	lookup(term string) ([]aliasDoc, error)
}

// nsOf names the namespace a repo path is in ("" for none); nil when no
// namespaces are configured.
type nsOf func(path string) string

// namespacesOf makes the nsOf of a configuration.
func namespacesOf(ns config.Namespaces) nsOf {
	if len(ns) == 0 {
		return nil
	}
	return func(p string) string {
		name, _ := ns.Of(p)
		return name
	}
}

// resolve decides a link's target and status. Where an id names several
// documents and namespaces are configured, those in the namespace of the
// link's own document (srcPath) come first: one there resolves the link.
func resolve(l *link, src aliasSource, ns nsOf, srcPath string) (dst int64, status string, err error) {
	if l.status != "" {
		return 0, l.status, nil
	}
	for _, term := range l.plan {
		docs, err := src.lookup(term)
		if err != nil {
			return 0, "", err
		}
		if l.uidPrefix != "" {
			kept := docs[:0:0]
			for _, d := range docs {
				if strings.HasPrefix(strings.ToLower(d.uid), l.uidPrefix) {
					kept = append(kept, d)
				}
			}
			docs = kept
		}
		if strings.HasPrefix(term, "id:") {
			// Namespaces are id spaces: a file stem or a path means the
			// same file from anywhere.
			docs = preferNamespace(docs, ns, srcPath)
		}
		switch len(docs) {
		case 0:
			continue
		case 1:
			return docs[0].id, StatusOK, nil
		default:
			if last := l.plan[len(l.plan)-1]; strings.HasPrefix(term, "stem:") && strings.HasPrefix(last, "title:") {
				// two files named layout.md: the one of them titled so, if
				// one is (two documents of one id stay ambiguous)
				titled, err := src.lookup(last)
				if err != nil {
					return 0, "", err
				}
				var among []aliasDoc
				for _, t := range titled {
					if slices.ContainsFunc(docs, func(d aliasDoc) bool { return d.id == t.id }) {
						among = append(among, t)
					}
				}
				if len(among) == 1 {
					return among[0].id, StatusOK, nil
				}
			}
			if l.orElse == StatusExternal {
				return 0, StatusExternal, nil // an address names no one document: it stays a web link
			}
			return 0, StatusAmbiguous, nil
		}
	}
	if l.orElse != "" {
		return 0, l.orElse, nil
	}
	return 0, StatusDangling, nil
}

// preferNamespace keeps, of several documents, those in the namespace of
// srcPath, if any are.
func preferNamespace(docs []aliasDoc, ns nsOf, srcPath string) []aliasDoc {
	if len(docs) < 2 || ns == nil {
		return docs
	}
	own := ns(srcPath)
	var in []aliasDoc
	for _, d := range docs {
		if ns(d.path) == own {
			in = append(in, d)
		}
	}
	if len(in) == 0 {
		return docs
	}
	return in
}

// memAliases is the full build's alias table.
type memAliases map[string][]aliasDoc

func (m memAliases) lookup(term string) ([]aliasDoc, error) {
	alias, keep := stored(term)
	return filterDocs(m[alias], keep), nil
}
