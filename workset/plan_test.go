package workset

import (
	"reflect"
	"strings"
	"testing"

	"github.com/canon-md/canon/index"
)

func TestPlanItems(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   string
		want []PlanItem
	}{
		{name: "checkboxes", in: "- [ ] Back-off schedule\n- [x] Page after the fifth failure\n- [X] Runbook entry\n",
			want: []PlanItem{{Text: "Back-off schedule"}, {Text: "Page after the fifth failure", Done: true}, {Text: "Runbook entry", Done: true}}},
		{name: "plain list and numbers", in: "* one\n+ two\n1. three\n2) four\n",
			want: []PlanItem{{Text: "one"}, {Text: "two"}, {Text: "three"}, {Text: "four"}}},
		{name: "nested", in: "- parent\n  - child\n    - grandchild\n- next\n",
			want: []PlanItem{{Text: "parent"}, {Text: "child", Depth: 1}, {Text: "grandchild", Depth: 2}, {Text: "next"}}},
		{name: "continuation lines", in: "- a long item\n  that goes on\nlazily\n- b\n\n  still b after a blank line\n",
			want: []PlanItem{{Text: "a long item that goes on lazily"}, {Text: "b still b after a blank line"}}},
		{name: "paragraphs", in: "The endpoint answers within 2 s\nfor 99% of calls.\n\nRefunds are idempotent.\n",
			want: []PlanItem{{Text: "The endpoint answers within 2 s for 99% of calls."}, {Text: "Refunds are idempotent."}}},
		{name: "paragraph then list", in: "Given a refund:\n\n- it is logged\n- it is mailed\n",
			want: []PlanItem{{Text: "Given a refund:"}, {Text: "it is logged"}, {Text: "it is mailed"}}},
		{name: "headings and fences skipped", in: "# Acceptance Criteria\n- one\n```\n- not an item\n```\n### Sub\n- two\n",
			want: []PlanItem{{Text: "one"}, {Text: "two"}}},
		{name: "crlf and empty items", in: "- [ ] one\r\n-\r\n- [ ]\r\n- two\r\n",
			want: []PlanItem{{Text: "one"}, {Text: "two"}}},
		{name: "empty", in: "\n\n", want: nil},
		{name: "HTML comments (Backlog.md's markers)", in: "<!-- AC:BEGIN -->\n- [x] #1 one\n- [ ] #2 two <!-- a note --> still two\n<!-- AC:END -->\n<!--\n- not an item\n-->\nafter",
			want: []PlanItem{{Text: "#1 one", Done: true}, {Text: "#2 two still two"}, {Text: "after"}}},
		{name: "a comment in a fence stays", in: "```\n<!--\n```\n- one\n",
			want: []PlanItem{{Text: "one"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := PlanItems(tt.in)
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("PlanItems(%q)\n got %+v\nwant %+v", tt.in, got, tt.want)
			}
		})
	}
}

func TestIsCriteriaHeading(t *testing.T) {
	t.Parallel()
	for h, want := range map[string]bool{
		"Acceptance Criteria": true, "acceptance criteria:": true, "Acceptance criteria (v2)": true,
		"AC": true, "Definition of Done": true, "Criteria": false, "Goal": false, "": false,
	} {
		if got := IsCriteriaHeading(h); got != want {
			t.Errorf("IsCriteriaHeading(%q) = %v, want %v", h, got, want)
		}
	}
}

func TestRenderPlan(t *testing.T) {
	t.Parallel()
	got := RenderPlan("fix", []PlanSource{
		{Doc: index.DocRef{ID: "KB-TSK-0007", Title: "Retry"}, Found: true, Criteria: "- [ ] a\n  - [x] b\n"},
		{Doc: index.DocRef{ID: "KB-TSK-0008", Title: "Refresh"}},
		{Doc: index.DocRef{ID: "KB-TSK-0009", Title: "Empty"}, Found: true},
	})
	for _, want := range []string{
		"# Plan: fix\n",
		"## KB-TSK-0007: Retry\n\n- [ ] a\n  - [x] b\n",
		"## KB-TSK-0008: Refresh\n\nNo Acceptance Criteria section; write your own steps here.\n",
		"## KB-TSK-0009: Empty\n\nThe Acceptance Criteria section is empty.\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("plan lacks %q:\n%s", want, got)
		}
	}
}
