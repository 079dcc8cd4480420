package resolve

import (
	"net/url"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/canon-md/canon/index/config"
	"github.com/canon-md/canon/index/markdown"
)

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

// AliasTerms are the terms the alias table stores for a document: uid:,
// id:, stem:, num: (a file number or a record's name), dir: (a folder's
// page), was: (an old prefix's names) and title:.
func AliasTerms(d Identity) []string {
	terms := make([]string, 0, 5)
	if d.UID != "" {
		terms = append(terms, "uid:"+strings.ToLower(d.UID))
	}
	if d.ID != "" {
		terms = append(terms, "id:"+strings.ToLower(d.ID))
	}
	terms = append(terms, "stem:"+strings.ToLower(markdown.Stem(d.Path)))
	if n := FileNumber(d.Path); n != "" {
		terms = append(terms, "num:"+n)
	}
	if n := nameOfFile(d); n != "" {
		terms = append(terms, "num:"+n) // adr-004 of adr-004-module-loading.md, task-97 of "task-97 - Fix-x.md"
	}
	if name := markdown.DisplayStem(d.Path); name != markdown.Stem(d.Path) {
		terms = append(terms, "dir:"+strings.ToLower(name)) // canon show 2400-node-swap: its folder's page
	}
	for _, k := range d.oldNames() {
		terms = append(terms, "was:"+k)
	}
	if t := TitleKey(d.Title); t != "" {
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
func (d Identity) oldNames() []string {
	if len(d.Olds) == 0 {
		return nil
	}
	id := d.ID
	if id == "" {
		id = markdown.Stem(d.Path)
	}
	p, n, ok := PrefixNumber(id)
	if !ok {
		return nil
	}
	if _, named := d.Olds[p]; !named {
		return nil
	}
	n = strings.ToLower(n)
	out := []string{n}
	for _, old := range d.Olds[p] {
		out = append(out, old+"-"+n)
	}
	return out
}

// OldPrefixes turns config.Prefixes (old → new) into new → the old ones,
// sorted, with each of config.BareNumbers (bare) a prefix whose numbers
// alone name its documents.
func OldPrefixes(m map[string]string, bare []string) map[string][]string {
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
	if !IsNumber(ref) {
		return nil
	}
	var out []string
	for now := range OldPrefixes(prefixes, bare) {
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
	if i <= 0 || !IsNumber(s[i+1:]) || !config.IsIDPrefix(s[:i]) {
		return "", "", false
	}
	return strings.ToLower(s[:i]), s[i+1:], true
}

// FileNumber is the number a file name starts with, as written, when a
// dash or underscore follows it ("0097" of 0097-storage-engine.md, "0013.1"
// of 0013.1-bridge.md): ADR tools name decisions so, and frontmatter
// refers to them by it (superseded_by: [0097, 0097.1]). "" when none.
func FileNumber(p string) string {
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

// RecordName is the name a decision record's file name starts with when
// the record has no id (adr-004 of adr-004-module-loading.md, as its
// neighbours link it: [ADR-002](adr-002-configuration.md)), lower-cased;
// "" for any other file name.
func RecordName(p string) string {
	stem := markdown.Stem(p)
	if !markdown.IsADRStem(stem) {
		return ""
	}
	if len(stem) < 5 || stem[3] != '-' {
		return "" // adr_12, adr0007: no reference names them (PrefixNumber wants a dash)
	}
	n := FileNumber(stem[4:] + "-") // 004, 0013.1
	if n == "" {
		return ""
	}
	return strings.ToLower(stem[:4+len(n)])
}

// nameOfFile is the name the file name gives a document without an id
// (RecordName, else headName); "" for one with an id, which names it.
func nameOfFile(d Identity) string {
	if d.ID != "" {
		return ""
	}
	if n := RecordName(d.Path); n != "" {
		return n
	}
	return headName(d.Path)
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

// IsNumber reports a reference that is only a number as a file name starts
// with: digits, and dots between them (0097, 0013.1).
func IsNumber(s string) bool {
	return s != "" && FileNumber(s+"-") == s
}

// MatchKeys are the names by which links can point at a document.
func MatchKeys(d Identity) []string {
	keys := []string{strings.ToLower(markdown.Stem(d.Path))}
	if keys[0] == "index" {
		keys = append(keys, folderKey) // the page of its folder (folderPlan)
	}
	if dir := path.Dir(d.Path); (keys[0] == "index" || keys[0] == folderKey) && dir != "." {
		keys = append(keys, strings.ToLower(path.Base(dir))) // a link to the folder without its slash (mdPlan)
	}
	if n := nameOfFile(d); n != "" {
		keys = append(keys, n) // a ref that is its file's name (refPlan's num:)
	}
	if n := FileNumber(d.Path); n != "" {
		keys = append(keys, n) // a ref that is its number (refPlan's match)
	}
	if d.ID != "" {
		keys = append(keys, strings.ToLower(d.ID))
	}
	if d.UID != "" {
		keys = append(keys, strings.ToLower(d.UID))
	}
	if t := TitleKey(d.Title); t != "" {
		keys = append(keys, t) // a ref that names it by its title (refPlan's title:)
	}
	return append(keys, d.oldNames()...) // a ref an old prefix writes (refPlan's was:)
}

// Identity is what names a document to a reference: its path, id, uid
// and title, and the old prefixes of the repository (OldPrefixes), which
// give a document of a renamed prefix its old names.
type Identity struct {
	Path, ID, UID string
	Title         string              // what TitleKey names it by
	Olds          map[string][]string // a prefix in use → the old prefixes that name its numbers (OldPrefixes)
}

// Link is one outgoing link of a document: as written (its type, field,
// form, raw text, anchor and place) and, once planned (Plan), where to
// look for its target.
type Link struct {
	Type, Field, Form, Raw, Anchor string
	Line, Col                      int
	Terms                          []string // the plan: alias terms to try, in order
	UIDPrefix                      string   // from ID@uidprefix: keep only uids with this prefix
	Match                          string   // the match key: the lower-cased last name it points at
	Status                         string   // preset for links that need no lookup
	OrElse                         string   // the status when the plan finds nothing ("": dangling)
}

// DocLinks lists a document's links in a fixed order: frontmatter edges,
// then body links, each in source order.
func DocLinks(srcPath string, d *markdown.Document, pl Planner) []Link {
	out := make([]Link, 0, len(d.Refs)+len(d.Body.Links))
	for _, r := range d.Refs {
		out = append(out, refLink(srcPath, r, pl))
	}
	for _, bl := range d.Body.Links {
		out = append(out, bodyLink(srcPath, bl, pl))
	}
	return out
}

func refLink(srcPath string, r markdown.Ref, pl Planner) Link {
	l := Link{Type: r.Type, Field: r.Field, Form: FormRef, Raw: r.Raw, Line: r.Line, Col: r.Col}
	raw := strings.TrimSpace(r.Raw)
	if strings.HasPrefix(raw, "[[") && strings.HasSuffix(raw, "]]") {
		_, l.Anchor = SplitWiki(raw[2 : len(raw)-2])
	} else if !hasScheme(raw) {
		_, l.Anchor, _ = strings.Cut(raw, "#")
	}
	l.Plan(srcPath, pl)
	return l
}

func bodyLink(srcPath string, bl markdown.Link, pl Planner) Link {
	l := Link{Type: EdgeReferences, Line: bl.Line, Col: bl.Col, Raw: bl.Dest, Anchor: bl.Anchor}
	if bl.Rel != "" {
		l.Type = bl.Rel // Superseded by [2. Use X](0002-use-x.md)
	}
	switch bl.Form {
	case markdown.FormAutolink:
		l.Form = FormURL
	case markdown.FormWiki:
		l.Form = FormWiki
	case markdown.FormEmbed:
		l.Form = FormEmbed
	case markdown.FormImage:
		l.Form = FormImage
	default:
		l.Form = FormMD
	}
	l.Plan(srcPath, pl)
	return l
}

// Plan works out from a link's form and raw text (and the path of the file
// it is written in) where to look for its target: its Terms, UIDPrefix,
// Match, and the Status of a link that needs no lookup. It is a pure
// function of those and of pl (the repository's own web addresses, its
// site's pages), so an update can plan a stored link again, as after a
// rename.
func (l *Link) Plan(srcPath string, pl Planner) {
	l.Terms, l.UIDPrefix, l.Match, l.Status, l.OrElse = nil, "", "", "", ""
	raw := strings.TrimSpace(l.Raw)
	if p, ok := repoURLs(pl.URLs).repoPath(raw); ok && l.Form != FormWiki && l.Form != FormEmbed {
		urlPlan(l, srcPath, p) // an address of the repository's own file, in any form
		return
	}
	switch l.Form {
	case FormURL:
		l.Status = StatusExternal
	case FormWiki, FormEmbed:
		if raw == "" {
			l.Status = StatusSelf
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
	target = Slashes(target)
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

func refPlan(l *Link, srcPath, raw string) {
	if strings.HasPrefix(raw, "[[") && strings.HasSuffix(raw, "]]") {
		target, _ := SplitWiki(raw[2 : len(raw)-2])
		if target == "" {
			l.Status = StatusSelf
			return
		}
		wikiPlan(l, srcPath, target)
		return
	}
	if hasScheme(raw) {
		l.Status = StatusExternal
		return
	}
	if at := strings.LastIndexByte(raw, '@'); at > 0 && at < len(raw)-1 && !strings.ContainsAny(raw, "/ ") {
		id := raw[:at]
		l.UIDPrefix = strings.ToLower(raw[at+1:])
		l.Terms = []string{"id:" + strings.ToLower(id)}
		l.Match = strings.ToLower(id)
		return
	}
	target, _, _ := strings.Cut(raw, "#")
	target = Slashes(target)
	if RefNamesAFile(target) {
		l.Status = StatusFile
		return
	}
	l.Terms = []string{"uid:" + strings.ToLower(target), "id:" + strings.ToLower(target)}
	if strings.Contains(target, "/") || isMarkdown(target) {
		if p, ok := joinRepo("", target); ok {
			l.Terms = append(l.Terms, "path:"+p)
		}
		if p, ok := joinRepo(path.Dir(srcPath), target); ok {
			l.Terms = append(l.Terms, "path:"+p)
		}
	}
	l.Terms = append(l.Terms, "stem:"+strings.ToLower(markdown.Stem(target)))
	l.Match = strings.ToLower(markdown.Stem(target))
	if IsNumber(target) {
		l.Terms = append(l.Terms, "num:"+target) // 0097: the file 0097-….md
	}
	_, _, prefixed := PrefixNumber(target)
	if prefixed && !strings.Contains(target, "/") {
		// adr-004: the record adr-004-module-loading.md (RecordName);
		// task-97: "task-97 - Fix-x.md" without frontmatter (headName)
		l.Terms = append(l.Terms, "num:"+l.Match)
	}
	if prefixed || IsNumber(target) {
		l.Terms = append(l.Terms, "was:"+l.Match) // task-4 or 4: BACK-4 when task was back's prefix
		return                                    // an id, not a title
	}
	if t := TitleKey(target); t != "" && t == l.Match {
		// Last: the page whose title it is (Just the Docs, MADR's site);
		// its match key is the title's, so a retitled page re-resolves it.
		l.Terms = append(l.Terms, "title:"+t)
	}
}

func mdPlan(l *Link, srcPath, dest string, pl Planner) {
	if dest == "" || dest[0] == '?' {
		l.Status = StatusSelf // [setup](?plain=1#setup): this page, with a query
		return
	}
	if hasScheme(dest) || strings.HasPrefix(dest, "//") {
		l.Status = StatusExternal
		return
	}
	p, ok := mdPath(srcPath, dest)
	switch {
	case !ok && p == outOfRepo:
		l.Status = StatusDangling // it leaves the repository
	case !ok && p == onGitHub:
		l.Status = StatusExternal // ../../wiki from the root (see joinRepo)
	case !ok && l.Form == FormMD:
		folderPlan(l, srcPath, "") // the repository's root folder: "/", "docs/.."
	case !ok:
		l.Status = StatusFile
	case p == srcPath:
		l.Status = StatusSelf
	case l.Form == FormMD && endsInSlash(dest):
		folderPlan(l, srcPath, p) // docs/adr/, .github/
		if l.Status == "" && pl.Pages && p != "" {
			// a site's page (Jekyll's pretty permalinks, Docusaurus): ./b/ is b.md
			// where no folder has a page there
			l.Match = strings.ToLower(path.Base(p))
			l.Terms = append(l.Terms, "pathnoext:"+strings.ToLower(p))
		}
	case l.Form == FormMD && path.Ext(p) == "":
		// docs/adr: a folder's page. Where the repository is a site that
		// serves a page at its path without .md (Jekyll, Docusaurus),
		// ./eip-150 is that page when no folder has a page there; GitHub
		// serves none, and canon check says so elsewhere.
		folderPlan(l, srcPath, p)
		if l.Status == "" {
			l.Match = strings.ToLower(path.Base(p))
			if pl.Pages {
				l.Terms = append(l.Terms, "pathnoext:"+strings.ToLower(p))
			}
		}
	case !isMarkdown(p) || l.Form == FormImage:
		l.Status = StatusFile
	default:
		l.Terms = []string{"path:" + p}
		l.Match = strings.ToLower(markdown.Stem(p))
	}
}

// folderPlan plans a link to a folder (dir, "" for the repository's root):
// GitHub shows the folder's README below its listing, so the link names
// that README when the folder has one (README.md, readme.md, any case), else
// its index.md (a documentation site's page for the folder, and what a
// README that is a symbolic link to index.md shows), and is a link to a
// folder otherwise (StatusFile: canon check looks for it in git's tree). A
// folder's page linking to its own folder links to itself. The match key is
// folderKey, which README and index documents have (MatchKeys); a link
// without a trailing slash, which may name a page of that name as well,
// has the folder's name, which they have too.
func folderPlan(l *Link, srcPath, dir string) {
	prefix := ""
	if dir != "" {
		prefix = strings.ToLower(dir) + "/"
	}
	if self := strings.ToLower(TrimMD(srcPath)); self == prefix+"readme" || self == prefix+"index" {
		l.Status = StatusSelf
		return
	}
	l.Terms = []string{"pathnoext:" + prefix + "readme", "pathnoext:" + prefix + "index"}
	l.Match, l.OrElse = folderKey, StatusFile
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
	l := Link{Form: FormMD, Raw: repoURLs(urls).dest(raw)}
	l.Plan(srcPath, Planner{})
	return l.OrElse == StatusFile // only folderPlan falls back to a file
}

// LinkTarget is the repo path a Markdown link points at ("" for a URL, a
// same-file anchor or a path leaving the repository). An address under one
// of urls (config.RepoURLs) points at the path it names.
func LinkTarget(srcPath, raw string, urls []string) string {
	raw = repoURLs(urls).dest(raw)
	l := Link{Form: FormMD, Raw: raw}
	l.Plan(srcPath, Planner{})
	if l.Status == StatusFile || l.OrElse == StatusFile { // a file, or a folder (folderPlan)
		p, _ := mdPath(srcPath, raw)
		return p
	}
	if len(l.Terms) == 1 {
		return strings.TrimPrefix(l.Terms[0], "path:")
	}
	return ""
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
	dest = Slashes(dest)
	base := path.Dir(srcPath)
	if strings.HasPrefix(dest, "/") {
		base = ""
	}
	return joinRepo(base, dest)
}

// wikiPlan resolves like Obsidian: a path from the repository root (with or
// without .md), else the file stem without case, else an id.
func wikiPlan(l *Link, srcPath, target string) {
	target = Slashes(strings.TrimSpace(target))
	if fileExt(target) {
		l.Status = StatusFile // ![[diagram.png]], [[report.pdf]]
		return
	}
	stem := strings.ToLower(markdown.Stem(target))
	if strings.Contains(target, "/") {
		if p, ok := joinRepo("", target); ok {
			l.Terms = append(l.Terms, "pathnoext:"+strings.ToLower(TrimMD(p)))
		}
		if p, ok := joinRepo(path.Dir(srcPath), target); ok {
			l.Terms = append(l.Terms, "pathnoext:"+strings.ToLower(TrimMD(p)))
		}
	}
	l.Terms = append(l.Terms, "stem:"+stem, "id:"+strings.ToLower(target))
	l.Match = stem
}

func isDigits(s string) bool {
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return s != ""
}

// SplitWiki splits "target#Heading|alias" into target and anchor.
func SplitWiki(inner string) (target, anchor string) {
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

// Slashes turns Windows separators into slashes.
func Slashes(p string) string { return strings.ReplaceAll(p, `\`, "/") }

// isMarkdown reports whether the path names a Markdown file (as
// index.IsMarkdown, which this package cannot import).
func isMarkdown(p string) bool {
	return strings.EqualFold(path.Ext(p), ".md")
}

// TrimMD is a path without its .md extension (any case); other paths as
// they are.
func TrimMD(p string) string {
	if isMarkdown(p) {
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

// Doc is a document found under an alias term: its row id (what a link
// resolves to), uid (for ID@uidprefix) and path.
type Doc struct {
	ID   int64
	UID  string
	Path string
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
		return "stem:" + strings.ToLower(markdown.Stem(p)), func(path string) bool { return strings.ToLower(TrimMD(path)) == p }
	}
	return term, nil
}

// StoredAlias is the alias term the alias table stores for a lookup term
// of a plan (a path term is looked up under its file stem): what an
// Aliases is asked for.
func StoredAlias(term string) string {
	alias, _ := stored(term)
	return alias
}

func filterDocs(docs []Doc, keep func(string) bool) []Doc {
	if keep == nil {
		return docs
	}
	var out []Doc
	for _, d := range docs {
		if keep(d.Path) {
			out = append(out, d)
		}
	}
	return out
}

// lookup is the documents a term of a plan names in src: those under its
// stored alias, a path term's kept to that path.
func lookup(src Aliases, term string) ([]Doc, error) {
	alias, keep := stored(term)
	docs, err := src.Lookup(alias)
	if err != nil {
		return nil, err
	}
	return filterDocs(docs, keep), nil
}

// Aliases is the alias table a resolution reads: Lookup returns the
// documents stored under an alias term (StoredAlias). The full build
// answers from memory (MemAliases), an update from the database; both run
// the same resolution.
type Aliases interface {
	Lookup(alias string) ([]Doc, error)
}

// NamespaceOf names the namespace a repo path is in ("" for none); nil when no
// namespaces are configured.
type NamespaceOf func(path string) string

// NamespacesOf makes the NamespaceOf of a configuration.
func NamespacesOf(ns config.Namespaces) NamespaceOf {
	if len(ns) == 0 {
		return nil
	}
	return func(p string) string {
		name, _ := ns.Of(p)
		return name
	}
}

// Resolve decides a planned link's target (a Doc's ID, 0 for none) and
// status, through src. Where an id names several documents and namespaces
// are configured, those in the namespace of the link's own document
// (srcPath) come first: one there resolves the link.
func (l *Link) Resolve(src Aliases, ns NamespaceOf, srcPath string) (dst int64, status string, err error) {
	if l.Status != "" {
		return 0, l.Status, nil
	}
	for _, term := range l.Terms {
		docs, err := lookup(src, term)
		if err != nil {
			return 0, "", err
		}
		if l.UIDPrefix != "" {
			docs = l.withUIDPrefix(docs)
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
			return docs[0].ID, StatusOK, nil
		default:
			if last := l.Terms[len(l.Terms)-1]; strings.HasPrefix(term, "stem:") && strings.HasPrefix(last, "title:") {
				// two files named layout.md: the one of them titled so, if
				// one is (two documents of one id stay ambiguous)
				titled, err := lookup(src, last)
				if err != nil {
					return 0, "", err
				}
				var among []Doc
				for _, t := range titled {
					if slices.ContainsFunc(docs, func(d Doc) bool { return d.ID == t.ID }) {
						among = append(among, t)
					}
				}
				if len(among) == 1 {
					return among[0].ID, StatusOK, nil
				}
			}
			if l.OrElse == StatusExternal {
				return 0, StatusExternal, nil // an address names no one document: it stays a web link
			}
			return 0, StatusAmbiguous, nil
		}
	}
	if l.OrElse != "" {
		return 0, l.OrElse, nil
	}
	return 0, StatusDangling, nil
}

// withUIDPrefix keeps the documents whose uid starts with the link's
// UIDPrefix (ID@uidprefix).
func (l *Link) withUIDPrefix(docs []Doc) []Doc {
	kept := docs[:0:0]
	for _, d := range docs {
		if strings.HasPrefix(strings.ToLower(d.UID), l.UIDPrefix) {
			kept = append(kept, d)
		}
	}
	return kept
}

// Candidates are the documents an ambiguous link could mean: those named
// by the first term of its plan that names two or more (its UIDPrefix
// applied), in src's order; nil when none does.
func (l *Link) Candidates(src Aliases) ([]Doc, error) {
	for _, term := range l.Terms {
		docs, err := lookup(src, term)
		if err != nil {
			return nil, err
		}
		if l.UIDPrefix != "" {
			docs = l.withUIDPrefix(docs)
		}
		if len(docs) >= 2 {
			return docs, nil
		}
	}
	return nil, nil
}

// preferNamespace keeps, of several documents, those in the namespace of
// srcPath, if any are.
func preferNamespace(docs []Doc, ns NamespaceOf, srcPath string) []Doc {
	if len(docs) < 2 || ns == nil {
		return docs
	}
	own := ns(srcPath)
	var in []Doc
	for _, d := range docs {
		if ns(d.Path) == own {
			in = append(in, d)
		}
	}
	if len(in) == 0 {
		return docs
	}
	return in
}

// MemAliases is an alias table in memory: the full build's, and the
// terms an update prefetched for a batch of links.
type MemAliases map[string][]Doc

// Lookup returns the documents stored under alias.
func (m MemAliases) Lookup(alias string) ([]Doc, error) {
	return m[alias], nil
}
