package check

// Introduced splits the findings of a repository's new state (after) into
// those its old state (before) does not have and those it already had. Two
// findings are the same problem when rule, document (its key, so a rename
// keeps its problems) and target agree: line numbers and message wording
// (a "did you mean" that changed with other documents) do not count. The
// match is by count: a third broken link to the same place where HEAD had
// two is one new problem.
func Introduced(before, after []Finding) (fresh, old []Finding) {
	type key struct{ rule, doc, target string }
	have := make(map[key]int, len(before))
	for _, f := range before {
		have[key{f.Rule, f.Doc, f.Target}]++
	}
	for _, f := range after {
		k := key{f.Rule, f.Doc, f.Target}
		if have[k] > 0 {
			have[k]--
			old = append(old, f)
			continue
		}
		fresh = append(fresh, f)
	}
	return fresh, old
}
