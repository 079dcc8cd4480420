package resolve

import (
	"net/url"
	"path"
	"strings"

	"github.com/canon-md/canon/index/markdown"
)

// A link's plan: from its form and raw text, the alias terms to look its
// target up by, in order, and the status of a link that needs no lookup
// (a URL, a file, a folder, a same-file anchor).

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
	stem := strings.ToLower(markdown.Stem(target))
	folderPage := false // keps/sig-x/2400-node-swap/README.md: its folder's page
	if strings.Contains(target, "/") || isMarkdown(target) {
		// A path without .md may name a folder, whose page is its README
		// as GitHub shows it (replaces: /keps/sig-x/583-coscheduling, in a
		// KEP's kep.yaml).
		folder := strings.Contains(target, "/") && !isMarkdown(target)
		if p, ok := joinRepo("", target); ok {
			l.Terms = append(l.Terms, "path:"+p)
			if folder {
				l.Terms = append(l.Terms, "path:"+p+"/README.md")
			}
		}
		if p, ok := joinRepo(path.Dir(srcPath), target); ok {
			l.Terms = append(l.Terms, "path:"+p)
			if folder {
				l.Terms = append(l.Terms, "path:"+p+"/README.md")
			}
		}
		// A folder's page named by a path elsewhere (another repository's,
		// a folder since renamed) is its folder's, not every README's.
		if dir := path.Base(path.Dir(target)); strings.Contains(target, "/") && (stem == folderKey || stem == "index") && dir != "." && dir != "/" && dir != ".." {
			stem, folderPage = strings.ToLower(dir), true
		}
	}
	if folderPage {
		l.Terms = append(l.Terms, "dir:"+stem)
	} else {
		l.Terms = append(l.Terms, "stem:"+stem)
	}
	l.Match = stem
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
// scan.IsMarkdown: resolve stays pure of the walk's package).
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
