package check

import (
	"strings"

	"github.com/canon-md/canon/index/config"
	"github.com/canon-md/canon/index/internal/checkreads"
	"github.com/canon-md/canon/index/lazyre"
	"github.com/canon-md/canon/index/markdown"
)

// What the repository in front of canon says of a finding (ADR-0027): an
// error its conventions make a likely false alarm is softened to a
// warning, with the reason, and a finding the repository rules out is
// skipped.

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
			n, err := checkreads.TitledCount(c.ctx, c.q, value)
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
// Hugo makes anchors canon does not know; a file templates: names is
// left out whole (canon init learns them, issue 43). why says so when the finding
// becomes a warning.
func (c *checker) byRepository(f Finding, keys map[string]string) (skip bool, why string) {
	cfg := c.in.Cfg
	switch {
	case f.Rule == markdown.RuleWikiLink && !cfg.RendersWikiLinks() && !cfg.Check.Configured[f.Rule]:
		return true, ""
	case cfg.LeftOut(f.Path):
		return true, "" // a template or fixture the configuration names (templates:, fixtures:): a file to copy, not a document
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
	t, err := checkreads.HasTitle(c.ctx, c.q, value)
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
			if used, err = checkreads.WikiLinksWork(c.ctx, c.q); err != nil {
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

// idLike is the shape of a work item's id: PREFIX-NNN, PREFIX-TSK-0001.
var idLike = lazyre.MustCompile(`^[A-Za-z][A-Za-z0-9]*(-[A-Za-z0-9]+)*-[0-9]+$`)

// idShaped reports whether a wiki-link finding's target (" NAME#ANCHOR")
// names something shaped like an id: meant as a reference, whatever the
// repository's other wiki-links do.
func idShaped(target string) bool {
	name, _, _ := strings.Cut(strings.TrimSpace(target), "#")
	return idLike.MatchString(name)
}
