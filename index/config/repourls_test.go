package config

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

func TestRepoURLBase(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"https://github.com/Rust-Lang/RFCs":                "github.com/rust-lang/rfcs",
		"http://www.github.com/k/e.git/":                   "github.com/k/e",
		"github.com/k/e":                                   "github.com/k/e",
		"https://gitlab.example.com:8443/grp/sub/repo":     "gitlab.example.com:8443/grp/sub/repo",
		"https://github.com":                               "",
		"https://github.com/acme":                          "", // an owner\'s page
		"https://github.com/":                              "",
		"https://user@github.com/k/e":                      "",
		"https://github.com/k/e?tab=readme":                "",
		"https://github.com/k/e#readme":                    "",
		"https://github.com/k/../e":                        "",
		"https://github.com//e":                            "",
		"localhost/k/e":                                    "",
		"https://github.com:/k/e":                          "",
		"ftp://github.com/k/e":                             "",
		"https://github.com/k/" + strings.Repeat("e", 200): "",
	} {
		got, ok := RepoURLBase(in)
		if got != want || ok != (want != "") {
			t.Errorf("RepoURLBase(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
}

func TestRepoURLs(t *testing.T) {
	t.Parallel()
	c, err := Parse("c.yaml", []byte("repo_urls: https://github.com/k/e\n"))
	if err != nil || !reflect.DeepEqual(c.RepoURLs, []string{"github.com/k/e"}) {
		t.Fatalf("repo_urls = %v, %v", c.RepoURLs, err)
	}
	c2, err := Parse("c.yaml", []byte("repo_urls: [https://github.com/k/e, github.com/K/E, https://github.com/k/old]\n"))
	if err != nil || !reflect.DeepEqual(c2.RepoURLs, []string{"github.com/k/e", "github.com/k/old"}) {
		t.Fatalf("repo_urls = %v, %v", c2.RepoURLs, err)
	}
	if c.IndexHash() == Default().IndexHash() || c.IndexHash() == c2.IndexHash() {
		t.Error("repo_urls shape the index: its hash must change with them")
	}
	if _, err := Parse("c.yaml", []byte("repo_urls: [https://github.com/k/e?x]\n")); err == nil || !strings.Contains(err.Error(), "write it like https://github.com/OWNER/REPO") {
		t.Errorf("a bad address: %v", err)
	}
	var many []string
	for i := 0; i <= MaxRepoURLs; i++ {
		many = append(many, fmt.Sprintf("github.com/k/r%d", i))
	}
	if _, err := Parse("c.yaml", []byte("repo_urls: ["+strings.Join(many, ", ")+"]\n")); err == nil || !strings.Contains(err.Error(), "at most 8") {
		t.Errorf("too many addresses: %v", err)
	}
	if _, err := Parse("c.yaml", []byte("learned:\n  repo_urls: ['https://x/k/e']\n")); err == nil || !strings.Contains(err.Error(), "learned.repo_urls") {
		t.Errorf("a bad learned address: %v", err)
	}
}

func TestSitePages(t *testing.T) {
	t.Parallel()
	for tool, want := range map[string]bool{"jekyll": true, "docusaurus": true, "hugo": false, "mkdocs": false, "backlog.md": false, "": false} {
		c := Default()
		c.Tool = tool
		if c.SitePages() != want {
			t.Errorf("SitePages with tool %q = %v, want %v", tool, !want, want)
		}
		if want && c.IndexHash() == Default().IndexHash() {
			t.Errorf("a site's pages shape the index: tool %q must change its hash", tool)
		}
	}
}

// TestSiteTools: what each site generator canon init learns does to
// links: page addresses canon does not resolve (Hugo, DocFX), wiki-links
// it does not render, anchors it makes itself (Hugo).
func TestSiteTools(t *testing.T) {
	t.Parallel()
	for tool, want := range map[string][3]bool{
		"hugo": {true, false, true}, "docfx": {true, false, false}, "jekyll": {false, false, false},
		"docusaurus": {false, false, false}, "obsidian": {false, true, false}, "": {false, true, false},
	} {
		c := Default()
		c.Tool = tool
		if got := [3]bool{c.PageAddresses(), c.RendersWikiLinks(), c.MakesOwnAnchors()}; got != want {
			t.Errorf("tool %q: page addresses, wiki-links, own anchors = %v, want %v", tool, got, want)
		}
	}
}
