package resolve

import (
	"slices"
	"strings"

	"github.com/canon-md/canon/index/config"
)

// repoURLs are config.RepoURLs, the repository's own web addresses as
// config.RepoURLBase writes them (github.com/owner/repo). A link written
// as a full address into the repository (KEPs and RFCs link each other as
// https://github.com/kubernetes/enhancements/tree/master/keps/…) names the
// document at that path: such a link is planned as the link from the root
// it stands for, and stays a web link (StatusExternal) when no document is
// there, as it was before: an address is never a broken link.
type repoURLs []string

// Planner is what a link's plan depends on beyond the link and the file it
// is written in: the repository's own web addresses, and whether the
// repository publishes a site that serves a page at its path without .md
// (config.Config.SitePages). Both shape the index (config.IndexHash).
type Planner struct {
	URLs  []string // config.RepoURLs
	Pages bool     // config.Config.SitePages
}

// PlannerOf is cfg's Planner.
func PlannerOf(cfg *config.Config) Planner {
	return Planner{URLs: cfg.RepoURLs, Pages: cfg.SitePages()}
}

// Equal reports whether two planners plan every link alike.
func (p Planner) Equal(q Planner) bool {
	return p.Pages == q.Pages && slices.Equal(p.URLs, q.URLs)
}

// repoPath returns the link from the repository's root that web address
// dest stands for ("/docs/x.md"; a folder, such as GitHub's tree/ pages,
// ends in a slash), and whether dest is one: the scheme (http, https or
// none, "//"), an optional "www.", one of u, then GitHub's or GitLab's
// blob/REF/PATH, tree/REF/PATH or raw/REF/PATH (GitLab's after "-/"). The
// ref is one segment: a branch whose name holds a slash is read as its
// first segment and the rest as the path, which then names nothing. Query
// and fragment are left out; the link's anchor is kept apart.
func (u repoURLs) repoPath(dest string) (string, bool) {
	if len(u) == 0 {
		return "", false
	}
	s := strings.TrimSpace(dest)
	low := lowerASCII(s) // the same length as s: its offsets are s's
	cut := hostStart(low)
	if cut == 0 {
		return "", false
	}
	best := "" // the longest that matches: github.com/acme/specs before github.com/acme/spec
	for _, base := range u {
		if len(base) > len(best) && strings.HasPrefix(low[cut:], base+"/") {
			best = base
		}
	}
	if best == "" {
		return "", false
	}
	rest := s[cut+len(best)+1:]
	if i := strings.IndexAny(rest, "?#"); i >= 0 {
		rest = rest[:i]
	}
	rest = strings.TrimPrefix(rest, "-/")
	view, rest, _ := strings.Cut(rest, "/")
	ref, p, _ := strings.Cut(rest, "/")
	if ref == "" {
		return "", false
	}
	switch view {
	case "blob", "raw":
		if p == "" {
			return "", false
		}
		return "/" + p, true
	case "tree":
		if p = strings.TrimSuffix(p, "/"); p == "" {
			return "/", true // the repository's root folder
		}
		return "/" + p + "/", true
	}
	return "", false
}

// dest is a link destination as the link from the root it stands for when
// it is an address under u, else as written.
func (u repoURLs) dest(raw string) string {
	if p, ok := u.repoPath(raw); ok {
		return p
	}
	return raw
}

// urlPlan plans a web address into the repository as the link from the
// root p: a document or a folder's page when one is there, a web link
// otherwise (a file that is not a document, a path leaving the
// repository).
func urlPlan(l *Link, srcPath, p string) {
	form := l.Form
	if form != FormImage {
		l.Form = FormMD // an autolink or a reference names the page as a Markdown link does
	}
	mdPlan(l, srcPath, p, Planner{})
	l.Form = form
	switch {
	case l.Terms != nil:
		l.OrElse = StatusExternal
	case l.Status != StatusSelf:
		l.Status = StatusExternal
	}
}

// AnchorUnchecked reports a link written as a web address whose #anchor
// canon does not check against the document it names: a bare address (an
// autolink runs to the next space, so in Chinese or Japanese text its
// anchor takes the words after it), and an address of a file at a commit
// (…/blob/3f2c1a9/docs/x.md: the page as it was then, whose headings may
// since have changed).
func AnchorUnchecked(form, raw string) bool {
	if !hasScheme(raw) && !strings.HasPrefix(raw, "//") {
		return false
	}
	if form == FormURL {
		return true
	}
	for _, view := range []string{"/blob/", "/tree/", "/raw/"} {
		if i := strings.Index(raw, view); i >= 0 {
			ref, _, _ := strings.Cut(raw[i+len(view):], "/")
			return len(ref) >= 7 && len(ref) <= 64 && strings.Trim(ref, "0123456789abcdefABCDEF") == ""
		}
	}
	return false
}

// RepoAddress splits a web address shaped like one of a file or folder of
// a repository (https://HOST/OWNER/REPO/blob/REF/PATH, tree/ or raw/) into
// the repository's address as config.RepoURLBase writes it
// (host/owner/repo) and the link from its root the address stands for
// ("/PATH", a folder ending in a slash), as if the repository were
// listed in repo_urls. canon init counts these to learn repo_urls.
func RepoAddress(raw string) (base, p string, ok bool) {
	s := lowerASCII(strings.TrimSpace(raw))
	cut := hostStart(s)
	if cut == 0 {
		return "", "", false
	}
	parts := strings.SplitN(s[cut:], "/", 4) // host, owner, repository, the rest
	if len(parts) < 4 {
		return "", "", false
	}
	if base, ok = config.RepoURLBase(strings.Join(parts[:3], "/")); !ok {
		return "", "", false
	}
	if p, ok = (repoURLs{base}).repoPath(raw); !ok {
		return "", "", false
	}
	return base, p, true
}

// hostStart is where the host of web address low (lower-cased) begins,
// after its scheme (https://, http://, or // alone) and "www."; 0 when it
// has no scheme.
func hostStart(low string) int {
	for _, scheme := range []string{"https://", "http://", "//"} {
		if strings.HasPrefix(low, scheme) {
			if strings.HasPrefix(low[len(scheme):], "www.") {
				return len(scheme) + len("www.")
			}
			return len(scheme)
		}
	}
	return 0
}

// lowerASCII lower-cases A to Z only: strings.ToLower changes the length of
// some letters (the Kelvin sign K becomes k), and repoPath cuts the address
// at the offsets of its lower-cased copy. Hosts and repository names are
// ASCII; an address with other letters where they stand matches none.
func lowerASCII(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}
