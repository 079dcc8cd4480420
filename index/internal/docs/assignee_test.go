package docs

import "testing"

// TestAssignee: who has an item, from its assignee, owner and assignees
// fields as json_extract gives them: the first that names someone.
func TestAssignee(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		`[null,null,null]`:           "",
		`["bob",null,null]`:          "bob",
		`[null,"tom",null]`:          "tom",
		`[[],"tom",null]`:            "tom",
		`[["@alice","@bob"],null,1]`: "@alice, @bob",
		`["",null,["ann"]]`:          "ann",
		`[null,null,7]`:              "7",
		`[{"a":1},null,null]`:        "",
		`not json`:                   "",
	} {
		if got := assignee(in); got != want {
			t.Errorf("assignee(%s) = %q, want %q", in, got, want)
		}
	}
}
