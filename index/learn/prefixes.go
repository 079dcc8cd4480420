package learn

import (
	"context"
	"fmt"
	"strings"

	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/internal/checkreads"
	"github.com/canon-md/canon/index/resolve"
)

// A repository that renamed its id prefix (Backlog.md's task_prefix: back)
// keeps references under the old one: parent_task_id: task-4 for BACK-4.
// Backlog.md itself compares ids by number. Learning maps an old prefix to
// the one in use when most references under it name no document, their
// numbers do under that one, and no document uses the old prefix.

// prefixShare: at least this share of an old prefix's references must name
// a number in use under the new one.
const prefixShare = 0.8

// A rename leaves references to several items: the references that name
// a number in use must name at least two numbers, none of them more than
// half of the references. 41 references to epic-11 and one to epic-6 in
// CRJFisher/ariadne named the folders epic-11-… and epic-6-…, and their
// numbers were tasks' by chance (tasks 1 to 300 hold every small number).
const oneNumberShare = 0.5

// oldPrefixRefs are the frontmatter references shaped PREFIX-NUMBER that
// name no document by its id or file stem (names), resolved or not: once
// prefixes is written they resolve through it, and learning must find the
// same evidence again. The fields gather reads as edge candidates are left
// out (counted there).
func oldPrefixRefs(ctx context.Context, q index.Querier, names map[string]bool) ([]string, error) {
	var out []string
	err := checkreads.EachFrontmatterRef(ctx, q, func(field, raw string) error {
		if _, isEdge := defaultEdges[field]; !isEdge && edgeCandidates[field] != "" {
			return nil
		}
		raw = strings.TrimSpace(raw)
		if _, _, ok := resolve.PrefixNumber(raw); ok && !names[strings.ToLower(raw)] {
			out = append(out, raw)
		}
		return nil
	})
	return out, err
}

// learnPrefixes decides f.prefixes from the references that name nothing
// and the numbers (number → prefixes) the documents' ids use.
// folders are the prefixes that name folders (epic for epic-11-codebase/):
// references under them name the folder, not a renamed id.
func (f *facts) learnPrefixes(unnamed []string, numbers map[string]map[string]bool, folders map[string]bool) {
	inUse := map[string]bool{}
	for _, ps := range numbers {
		for p := range ps {
			inUse[p] = true
		}
	}
	total := map[string]int{}
	refs := map[string]map[string]map[string]int{} // old → new → number → the references naming it
	for _, v := range unnamed {
		p, n, ok := resolve.PrefixNumber(v)
		if !ok || inUse[p] || folders[strings.ToLower(p)] {
			continue
		}
		total[p]++
		n = strings.ToLower(n)
		for q := range numbers[n] {
			if refs[p] == nil {
				refs[p] = map[string]map[string]int{}
			}
			if refs[p][q] == nil {
				refs[p][q] = map[string]int{}
			}
			refs[p][q][n]++
		}
	}
	for p, t := range total {
		if t < MinCount {
			continue
		}
		best, n, tie := "", 0, false
		for q, byNumber := range refs[p] {
			c := 0
			for _, k := range byNumber {
				c += k
			}
			switch {
			case c > n:
				best, n, tie = q, c, false
			case c == n:
				tie = true
			}
		}
		if best == "" || tie || float64(n) < prefixShare*float64(t) || !spread(refs[p][best], n) {
			continue
		}
		if f.prefixes == nil {
			f.prefixes, f.prefixWhy = map[string]string{}, map[string]string{}
		}
		f.prefixes[p] = best
		f.prefixWhy[p] = fmt.Sprintf("%d references shaped %s-NUMBER name no document; %d of them are the number of a %s-NUMBER document", t, p, n, best)
	}
}

// learnBare decides f.bare: the id prefix whose documents the bare numbers
// of edge fields name (the EIPs' requires: 2718, 2930 for eip-2718.md),
// when at least MinCount such numbers name no document otherwise
// (names, the prefixes learned) and prefixShare of them are the number of
// a document under one prefix (numbers: a number → the prefixes in use).
func (f *facts) learnBare(vals []string, names map[string]bool, numbers map[string]map[string]bool) {
	total := 0
	pairs := map[string]int{}
	for _, v := range vals {
		v = strings.ToLower(strings.TrimSpace(v))
		if _, _, ok := resolve.PrefixNumber("n-" + v); !ok || names[v] || len(resolve.OldPrefixIDs(v, f.prefixes, nil)) > 0 {
			continue // not a bare number, or one that names a document already
		}
		total++
		for q := range numbers[v] {
			pairs[q]++
		}
	}
	best, n, tie := "", 0, false
	for q, c := range pairs {
		switch {
		case c > n:
			best, n, tie = q, c, false
		case c == n:
			tie = true
		}
	}
	if best == "" || tie || total < MinCount || float64(n) < prefixShare*float64(total) {
		return
	}
	f.bare = []string{best}
	f.bareWhy = fmt.Sprintf("%d values of edge fields are bare numbers; %d of them are the number of a document named %s-NUMBER", total, n, best)
}

// toolSays adds what the tool itself does, for the evidence.
func toolSays(tool string) string {
	if tool == "backlog.md" {
		return " (Backlog.md compares task ids by their number)"
	}
	return ""
}

// spread reports whether the n references to numbers (number → count)
// name at least two, none of them more than oneNumberShare of n.
func spread(numbers map[string]int, n int) bool {
	if len(numbers) < 2 {
		return false
	}
	for _, c := range numbers {
		if float64(c) > oneNumberShare*float64(n) {
			return false
		}
	}
	return true
}

// numberedFolders adds to folders the prefix of each folder of p named
// PREFIX-NUMBER or PREFIX-NUMBER-words (epic-11-codebase-restructuring),
// lower-cased.
func numberedFolders(p string, folders map[string]bool) {
	dirs := strings.Split(p, "/")
	for _, d := range dirs[:len(dirs)-1] {
		head, _, _ := strings.Cut(d, " ")
		parts := strings.SplitN(head, "-", 3)
		if len(parts) < 2 {
			continue
		}
		if _, _, ok := resolve.PrefixNumber(parts[0] + "-" + parts[1]); ok {
			folders[strings.ToLower(parts[0])] = true
		}
	}
}
