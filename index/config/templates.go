package config

import (
	"fmt"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// MaxTemplates bounds templates: every finding of canon check, every
// item ready lists and every document a pack weighs is matched against
// each, and the list comes with the repository.
const MaxTemplates = 200

// checkTemplates checks templates (paths or doublestar globs of the files
// that are templates to copy, not documents: eip-template.md,
// .github/PULL_REQUEST_TEMPLATE/*.md) and writes each without a leading
// "./".
func checkTemplates(key string, globs []string) ([]string, error) {
	if len(globs) > MaxTemplates {
		return nil, fmt.Errorf("%s lists %d paths; at most %d are allowed, name a folder of templates with a glob such as .github/ISSUE_TEMPLATE/*.md", key, len(globs), MaxTemplates)
	}
	out := make([]string, 0, len(globs))
	for _, g := range globs {
		g = strings.TrimPrefix(strings.TrimSpace(g), "./")
		if g == "" {
			return nil, fmt.Errorf("%s has an empty entry; write a path such as eip-template.md", key)
		}
		if err := checkPrintable(key, g); err != nil {
			return nil, err
		}
		if !doublestar.ValidatePattern(g) {
			return nil, fmt.Errorf("%s: %q is not a valid pattern; write a path, or a glob such as .github/ISSUE_TEMPLATE/*.md", key, g)
		}
		out = append(out, g)
	}
	return out, nil
}

// IsTemplate reports a document templates names: a file to copy, not a
// document, whose links and values are placeholders until it is copied
// (<date created>, {{title}}). canon check, ready, blocked and context
// packs leave it out.
func (c *Config) IsTemplate(p string) bool { return MatchTemplate(c.Templates, p) }

// LeftOut reports a document templates or fixtures names: a file to
// copy, or a test fixture's copy of a document kept elsewhere. canon
// check, ready, blocked and context packs leave it out.
func (c *Config) LeftOut(p string) bool {
	return MatchTemplate(c.Templates, p) || MatchTemplate(c.Fixtures, p)
}

// MatchTemplate reports a path one of globs (templates:) names.
func MatchTemplate(globs []string, p string) bool {
	for _, g := range globs {
		if g == p {
			return true
		}
		if ok, _ := doublestar.Match(g, p); ok {
			return true
		}
	}
	return false
}
