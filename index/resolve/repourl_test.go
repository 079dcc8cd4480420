package resolve

import (
	"strings"
	"testing"
)

func TestRepoPath(t *testing.T) {
	t.Parallel()
	u := repoURLs{"github.com/rust-lang/rfcs", "gitlab.com/group/sub/repo"}
	tests := []struct {
		dest, want string
		ok         bool
	}{
		{"https://github.com/rust-lang/rfcs/blob/master/text/0243-trait.md", "/text/0243-trait.md", true},
		{"https://GitHub.com/Rust-Lang/RFCs/blob/master/text/X.md#detailed-design", "/text/X.md", true},
		{"http://www.github.com/rust-lang/rfcs/blob/abc123/README.md?plain=1", "/README.md", true},
		{"//github.com/rust-lang/rfcs/tree/master/text", "/text/", true},
		{"https://github.com/rust-lang/rfcs/tree/master/text/", "/text/", true},
		{"https://github.com/rust-lang/rfcs/tree/master", "/", true},
		{"https://github.com/rust-lang/rfcs/raw/master/a%20b.md", "/a%20b.md", true},
		{"https://gitlab.com/group/sub/repo/-/blob/main/docs/x.md", "/docs/x.md", true},
		{"https://github.com/rust-lang/rfcs", "", false},                 // the repository's home page
		{"https://github.com/rust-lang/rfcs/pull/243", "", false},        // a pull request
		{"https://github.com/rust-lang/rfcs/blob/master", "", false},     // no file
		{"https://github.com/rust-lang/rfcs/blob//x.md", "", false},      // no ref
		{"https://github.com/rust-lang/rfcs-old/blob/m/x.md", "", false}, // another repository
		{"https://github.com/rust-lang/rust/blob/master/x.md", "", false},
		{"ftp://github.com/rust-lang/rfcs/blob/master/x.md", "", false},
		{"text/x.md", "", false},
	}
	for _, tt := range tests {
		got, ok := u.repoPath(tt.dest)
		if got != tt.want || ok != tt.ok {
			t.Errorf("repoPath(%q) = %q, %v; want %q, %v", tt.dest, got, ok, tt.want, tt.ok)
		}
	}
	// the longest address that matches, whatever the order
	if got, _ := (repoURLs{"gitlab.com/grp/sub", "gitlab.com/grp/sub/repo"}).repoPath("https://gitlab.com/grp/sub/repo/-/blob/m/c.md"); got != "/c.md" {
		t.Errorf("longest match: %q", got)
	}
	if _, ok := repoURLs(nil).repoPath("https://github.com/rust-lang/rfcs/blob/master/x.md"); ok {
		t.Error("no repo_urls: an address is an address")
	}
}

func TestPlanRepoURLs(t *testing.T) {
	t.Parallel()
	u := []string{"github.com/k/e"}
	tests := []struct {
		form, raw, src      string
		plan, match, orElse string
		status              string
	}{
		{FormMD, "https://github.com/k/e/blob/master/keps/a/README.md#goals", "keps/b/README.md", "path:keps/a/README.md", "readme", StatusExternal, ""},
		{FormURL, "https://github.com/k/e/tree/master/keps/a", "x.md", "pathnoext:keps/a/readme | pathnoext:keps/a/index", folderKey, StatusExternal, ""},
		{FormRef, "https://github.com/k/e/blob/main/docs/x.md", "y.md", "path:docs/x.md", "x", StatusExternal, ""},
		{FormMD, "https://github.com/k/e/blob/master/x.md", "x.md", "", "", "", StatusSelf},
		{FormMD, "https://github.com/k/e/blob/master/logo.png", "x.md", "", "", "", StatusExternal},
		{FormMD, "https://github.com/k/e/blob/master/../../x.md", "x.md", "", "", "", StatusExternal},
		{FormImage, "https://github.com/k/e/raw/master/a.md", "x.md", "", "", "", StatusExternal},
		{FormMD, "https://github.com/k/e/issues/1", "x.md", "", "", "", StatusExternal},
	}
	for _, tt := range tests {
		l := Link{Form: tt.form, Raw: tt.raw}
		l.Plan(tt.src, Planner{URLs: u})
		if got := strings.Join(l.Terms, " | "); got != tt.plan || l.Match != tt.match || l.OrElse != tt.orElse || l.Status != tt.status || l.Form != tt.form {
			t.Errorf("plan(%s %q) = %q, match %q, orElse %q, status %q, form %s; want %q, %q, %q, %q", tt.form, tt.raw, got, l.Match, l.OrElse, l.Status, l.Form, tt.plan, tt.match, tt.orElse, tt.status)
		}
		l = Link{Form: tt.form, Raw: tt.raw}
		if l.Plan(tt.src, Planner{}); tt.form != FormRef && l.Status != StatusExternal {
			t.Errorf("without repo_urls, %q is %q", tt.raw, l.Status)
		}
	}
}

func TestAnchorUnchecked(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		form, raw string
		want      bool
	}{
		{FormMD, "https://github.com/k/e/blob/77a84d2d55b5802a615f3fe98e7e7c9bd26c9efc/keps/a/README.md", true},
		{FormMD, "https://github.com/k/e/tree/3f2c1a9/keps/a", true},
		{FormURL, "https://github.com/k/e/blob/main/x.md", true}, // a bare address
		{FormMD, "https://github.com/k/e/blob/master/keps/a/README.md", false},
		{FormMD, "https://github.com/k/e/blob/decade/x.md", false}, // a branch of hex letters, too short
		{FormMD, "https://github.com/k/e/blob/v1.2.3/x.md", false},
		{FormMD, "docs/blob/77a84d2d55b5/x.md", false},
	} {
		if got := AnchorUnchecked(tt.form, tt.raw); got != tt.want {
			t.Errorf("AnchorUnchecked(%s, %q) = %v, want %v", tt.form, tt.raw, got, tt.want)
		}
	}
}

func TestRepoAddress(t *testing.T) {
	t.Parallel()
	tests := []struct{ raw, base, p string }{
		{"https://github.com/Rust-Lang/rfcs/blob/master/text/0001-x.md#a", "github.com/rust-lang/rfcs", "/text/0001-x.md"},
		{"http://www.github.com/k/e/tree/master/keps/sig-node", "github.com/k/e", "/keps/sig-node/"},
		{"https://github.com/k/e/pull/1", "", ""},
		{"https://github.com/k/e", "", ""},
		{"https://bad_host/k/e/blob/m/x.md", "", ""},
		{"keps/x.md", "", ""},
	}
	for _, tt := range tests {
		base, p, ok := RepoAddress(tt.raw)
		if base != tt.base || p != tt.p || ok != (tt.base != "") {
			t.Errorf("RepoAddress(%q) = %q, %q, %v; want %q, %q", tt.raw, base, p, ok, tt.base, tt.p)
		}
	}
}

func TestPlanSitePages(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		raw   string
		pages bool
		plan  string
	}{
		{"./eip-150", true, "pathnoext:eips/eip-150/readme | pathnoext:eips/eip-150/index | pathnoext:eips/eip-150"},
		{"./eip-150", false, "pathnoext:eips/eip-150/readme | pathnoext:eips/eip-150/index"},                          // GitHub serves no page there
		{"./eip-150/", true, "pathnoext:eips/eip-150/readme | pathnoext:eips/eip-150/index | pathnoext:eips/eip-150"}, // a folder's page, else the page (pretty permalinks)
		{"./eip-150/", false, "pathnoext:eips/eip-150/readme | pathnoext:eips/eip-150/index"},                         // a folder
	} {
		l := Link{Form: FormMD, Raw: tt.raw}
		l.Plan("EIPS/eip-1.md", Planner{Pages: tt.pages})
		if got := strings.Join(l.Terms, " | "); got != tt.plan {
			t.Errorf("plan(%q, pages %v) = %q, want %q", tt.raw, tt.pages, got, tt.plan)
		}
	}
	// an address is GitHub's page, not the site's
	l := Link{Form: FormMD, Raw: "https://github.com/e/eips/blob/master/EIPS/eip-2"}
	l.Plan("EIPS/eip-1.md", Planner{URLs: []string{"github.com/e/eips"}, Pages: true})
	if got := strings.Join(l.Terms, " | "); got != "pathnoext:eips/eip-2/readme | pathnoext:eips/eip-2/index" {
		t.Errorf("an address planned %q", got)
	}
}
