package learn

import (
	"context"
	"fmt"
	"net/url"
	"path"
	"sort"
	"strings"

	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/config"
	"github.com/canon-md/canon/index/internal/checkreads"
	"github.com/canon-md/canon/index/resolve"
	"github.com/canon-md/canon/index/scan"
)

// Repositories that link their own documents by full web address (KEPs,
// RFCs: https://github.com/kubernetes/enhancements/tree/master/keps/…)
// name their own files through it. Learning lists a repository's address
// in repo_urls when at least repoURLMin of its addresses name a document
// (or a folder's page) at the same path here, and they are at least
// repoURLShare of its addresses of Markdown files and folders: a
// convention, not a coincidence (a few links to another project's
// README.md or CONTRIBUTING.md name files this one has too). Where an RFC
// was drafted in a repository of its own and linked there, that
// repository's paths are this one's, and it is learned too. Addresses of
// files moved since (KEPs link their old paths) stay web links.
const (
	repoURLMin   = 10
	repoURLShare = 0.5
)

// folderKey is how learnRepoURLs keys the folder of a README or index
// page: its path and a slash, "" for the repository's root, as a tree/
// address names it.
func folderKey(page string) string {
	if dir := path.Dir(page); dir != "." {
		return strings.ToLower(dir) + "/"
	}
	return ""
}

// learnRepoURLs decides f.repoURLs from the links written as web
// addresses of a repository's files and pages, the lower-cased paths of
// the documents and of the folders holding a README or index.
func (f *facts) learnRepoURLs(ctx context.Context, q index.Querier, pages map[string]bool) error {
	// Every status: once learned, an address resolves (ok), names the page
	// it is written in (self) or two pages (external again); learning must
	// find the same evidence then.
	counts := map[string][2]int{} // base → links naming a document, links naming a Markdown file or folder
	err := checkreads.EachAddressRaw(ctx, q, func(raw string) error {
		base, p, ok := resolve.RepoAddress(raw)
		if !ok {
			return nil
		}
		if un, err := url.PathUnescape(p); err == nil {
			p = un
		}
		p = strings.ToLower(strings.TrimPrefix(p, "/"))
		if p != "" && !strings.HasSuffix(p, "/") && !scan.IsMarkdown(p) { // "": the root folder
			return nil // an image, a source file: not evidence either way
		}
		c := counts[base]
		c[1]++
		if pages[p] {
			c[0]++
		}
		counts[base] = c
		return nil
	})
	if err != nil {
		return err
	}
	var bases []string
	for b, c := range counts {
		if c[0] >= repoURLMin && float64(c[0]) >= repoURLShare*float64(c[1]) {
			bases = append(bases, b)
		}
	}
	sort.Slice(bases, func(i, j int) bool {
		if ci, cj := counts[bases[i]][0], counts[bases[j]][0]; ci != cj {
			return ci > cj
		}
		return bases[i] < bases[j]
	})
	if len(bases) > config.MaxRepoURLs {
		bases = bases[:config.MaxRepoURLs]
	}
	for _, b := range bases {
		c := counts[b]
		f.repoURLs = append(f.repoURLs, "https://"+b)
		f.repoURLWhy = append(f.repoURLWhy, fmt.Sprintf("%d of the %d links written as addresses of Markdown files or folders in %s name a document at the same path here", c[0], c[1], b))
	}
	return nil
}
