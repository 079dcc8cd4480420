package gitsync

import (
	"context"
	"fmt"

	"github.com/canon-md/canon/index/check"
	"github.com/canon-md/canon/index/ids"
)

// RuleIDCollision is canon check --new-from's finding of an id the branch
// minted that the target branch minted too since their merge base
// (issue 25, ADR-0043): a duplicate-id the merge would make.
const RuleIDCollision = "id-collision"

// mintedTwice finds the ids of the documents the branch added since base
// (changes: base to the working tree) that documents rev added since base
// carry too: two different items (ids.Collisions: a shared path or uid
// is one item) that would share an id once merged. Each is a finding on
// the branch's document.
func (s *Session) mintedTwice(ctx context.Context, base, rev string, changes []StagedChange, cat *CatFile) ([]check.Finding, error) {
	ours := map[string]bool{}
	for _, c := range changes {
		if c.From == "" && s.Scope.IsDocumentPath(c.Path) {
			ours[c.Path] = true
		}
	}
	if len(ours) == 0 {
		return nil, nil
	}
	paths := make([]string, 0, len(ours))
	for p := range ours {
		paths = append(paths, p)
	}
	all, err := s.Store.IdentDocsSharing(ctx, paths)
	if err != nil {
		return nil, err
	}
	var docs []ids.Doc
	for _, d := range all {
		if ours[d.Path] {
			docs = append(docs, d)
		}
	}
	added, err := s.addedIdentDocs(ctx, cat, base, rev, 0)
	if err != nil {
		return nil, err
	}
	theirs := map[string]bool{}
	for _, d := range added {
		theirs[d.Path] = true
		docs = append(docs, d)
	}
	var out []check.Finding
	for _, c := range ids.Collisions(docs, s.Cfg) {
		var mine []ids.Doc
		var other []string
		for _, d := range c.Docs {
			switch {
			case ours[d.Path] && d.IdentLine > 0:
				mine = append(mine, d)
			case theirs[d.Path]:
				other = append(other, d.Path)
			}
		}
		if len(other) == 0 {
			continue
		}
		for _, d := range mine {
			out = append(out, check.Finding{Path: d.Path, Line: d.IdentLine, Col: 1, Severity: "error", Rule: RuleIDCollision, Target: c.Ident, Doc: d.Key,
				Message: fmt.Sprintf("id %s is minted by this branch and by %s too (%s); give this one a new id before the merge: canon id rename %s NEW --path %s",
					c.Ident, rev, other[0], c.Ident, d.Path)})
		}
	}
	return out, nil
}
