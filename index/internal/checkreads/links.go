package checkreads

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/canon-md/canon/index/internal/sqlstore"
	"github.com/canon-md/canon/index/markdown"
	"github.com/canon-md/canon/index/resolve"
)

// UnresolvedProblem is the problem of a link that resolved to no document
// (dangling) or to several (ambiguous): dangling-ref or ambiguous-ref in
// frontmatter, wiki-link, or broken-link for a Markdown link.
func UnresolvedProblem(ctx context.Context, q sqlstore.Querier, srcPath, field, form, raw, anchor, status string, line, col int) (sqlstore.Problem, error) {
	p := sqlstore.Problem{Path: srcPath, Line: line, Col: col, Severity: string(markdown.Error)}
	ambiguous := status == resolve.StatusAmbiguous
	var names string
	if ambiguous {
		paths, err := CandidatePaths(ctx, q, srcPath, form, raw)
		if err != nil {
			return p, err
		}
		names = strings.Join(paths, ", ")
	}
	wiki := "[[" + raw
	if anchor != "" {
		wiki += "#" + anchor
	}
	wiki += "]]"
	switch {
	case form == resolve.FormRef && ambiguous:
		p.Rule = markdown.RuleAmbiguousRef
		p.Message = fmt.Sprintf("%s: %s names more than one document (%s); write ID@uidprefix or a path", field, raw, names)
	case form == resolve.FormRef:
		p.Rule = markdown.RuleDanglingRef
		p.Message = fmt.Sprintf("%s: %s names no document; fix the reference or remove it", field, raw)
	case (form == resolve.FormWiki || form == resolve.FormEmbed) && ambiguous:
		p.Rule = markdown.RuleWikiLink
		p.Message = fmt.Sprintf("%s matches more than one document (%s); write the path to say which", wiki, names)
	case form == resolve.FormWiki || form == resolve.FormEmbed:
		p.Rule = markdown.RuleWikiLink
		p.Message = fmt.Sprintf("%s matches no document; fix the name or create the note", wiki)
	default:
		p.Rule = markdown.RuleBrokenLink
		p.Message = fmt.Sprintf("link target %s does not exist; fix the path", raw)
	}
	return p, nil
}

// CandidatePaths lists, sorted, the documents an ambiguous link could mean:
// those named by the first term of its plan that names two or more
// (resolve.Link.Candidates).
func CandidatePaths(ctx context.Context, q sqlstore.Querier, srcPath, form, raw string) ([]string, error) {
	l := resolve.Link{Form: form, Raw: raw}
	l.Plan(srcPath, resolve.Planner{})
	docs, err := l.Candidates(aliasesIn{ctx: ctx, q: sqlstore.Reads(q)})
	if err != nil {
		return nil, err
	}
	var paths []string
	for _, d := range docs {
		paths = append(paths, d.Path)
	}
	return paths, nil
}

// aliasesIn is the alias table of q as a resolve.Aliases: the documents
// under a term by path, with their uids (no row ids: what CandidatePaths
// reads).
type aliasesIn struct {
	ctx context.Context
	q   sqlstore.Q
}

func (a aliasesIn) Lookup(alias string) ([]resolve.Doc, error) {
	rows, err := a.q.QueryContext(a.ctx, `SELECT d.path, d.uid FROM aliases a JOIN docs d ON d.id = a.doc WHERE a.term = ? ORDER BY d.path`, alias)
	if err != nil {
		return nil, err
	}
	return sqlstore.ScanAll(rows, func(r *sql.Rows) (resolve.Doc, error) {
		var d resolve.Doc
		return d, r.Scan(&d.Path, &d.UID)
	})
}

// WikiLinksWork reports whether any wiki-link or embed of the repository
// resolves: whether the repository uses them at all. The partial index
// links_wiki answers it (its values are written out: a bound parameter
// cannot select a partial index); without it, every check of a repository
// with no working wiki-link read every link (ADR-0034).
func WikiLinksWork(ctx context.Context, q sqlstore.Querier) (bool, error) {
	var n int
	err := sqlstore.Reads(q).QueryRowContext(ctx, `SELECT EXISTS(SELECT 1 FROM links WHERE form IN ('`+resolve.FormWiki+`', '`+resolve.FormEmbed+`') AND status IN ('`+resolve.StatusOK+`', '`+resolve.StatusSelf+`'))`).Scan(&n)
	return n == 1, err
}
