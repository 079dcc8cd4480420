package learn

import (
	"reflect"
	"slices"
	"testing"

	"github.com/canon-md/canon/index/resolve"
)

func TestLearnPrefixes(t *testing.T) {
	t.Parallel()
	numbers := map[string]map[string]bool{
		"1": {"back": true}, "2": {"back": true, "draft": true}, "3": {"back": true},
		"4": {"draft": true, "doc": true}, "5": {"doc": true},
	}
	for _, tt := range []struct {
		name    string
		unnamed []string
		want    map[string]string
	}{
		{"most name a number in use", []string{"task-1", "task-2", "TASK-3", "task-3", "task-99"}, map[string]string{"task": "back"}},
		{"one number is no rename", []string{"epic-1", "epic-1", "epic-1"}, nil},
		{"most references to one number are no rename", []string{"epic-1", "epic-1", "epic-1", "epic-2"}, nil},
		{"two numbers, each half", []string{"old-1", "old-3"}, map[string]string{"old": "back"}},
		{"a prefix that names folders", []string{"folder-1", "folder-2", "folder-3"}, nil},
		{"too few", []string{"task-1"}, nil},
		{"under the share", []string{"task-1", "task-2", "task-98", "task-99"}, nil},
		{"a prefix in use is no old one", []string{"draft-1", "draft-3", "draft-1"}, nil},
		{"a tie names none", []string{"old-4", "old-4"}, nil},
		{"not shaped PREFIX-NUMBER", []string{"task-x", "task-1a", "1", "2"}, nil},
	} {
		f := &facts{}
		folders := map[string]bool{}
		numberedFolders("backlog/tasks/folder-11-restructuring/task-1.md", folders)
		numberedFolders("backlog/folder-x/task-2.md", folders) // no number: names no folder of the prefix
		f.learnPrefixes(tt.unnamed, numbers, folders)
		if !reflect.DeepEqual(f.prefixes, tt.want) {
			t.Errorf("%s: prefixes = %v, want %v", tt.name, f.prefixes, tt.want)
		}
	}
	names := map[string]bool{"back-1": true, "back-2": true, "back-3": true}
	f := &facts{prefixes: map[string]string{"task": "back"}}
	for v, want := range map[string]bool{"task-1": true, "TASK-3": true, "task-4": false, "2": true, "4": false, "draft-1": false} {
		got := slices.ContainsFunc(resolve.OldPrefixIDs(v, f.prefixes, nil), func(id string) bool { return names[id] })
		if got != want {
			t.Errorf("%q names a document through the prefixes: %v, want %v", v, got, want)
		}
	}
}
