package index

import (
	"fmt"
	"strings"
)

// IsObjectID reports whether s is a full git object id as canon stores
// them: 40 (SHA-1) or 64 (SHA-256) lowercase hexadecimal digits. Every
// object id canon hands to git passes it first: a value read from a
// workset, a hand-off file or a database is input, and git takes
// "--output=FILE" for an option wherever a revision may stand.
func IsObjectID(s string) bool {
	if len(s) != 40 && len(s) != 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// WorksetDir is the repository-relative folder of the worksets. The index
// never reads .cache; canon check reports every file git tracks there
// (RuleTrackedWorkset): a workset git tracks came with the repository and
// canon refuses to open it.
const WorksetDir = ".cache/worksets"

// RuleTrackedWorkset is canon check's rule for a file git tracks under
// WorksetDir.
const RuleTrackedWorkset = "tracked-workset"

// InWorksetDir reports a repository-relative path git must not track: a
// file under WorksetDir, or WorksetDir or its parent as a file or a
// symbolic link of its own (a tracked link .cache -> elsewhere would make
// tracked files look like worksets canon made).
func InWorksetDir(path string) bool {
	return path == WorksetDir || path == worksetParent || strings.HasPrefix(path, WorksetDir+"/")
}

var worksetParent = WorksetDir[:strings.LastIndexByte(WorksetDir, '/')]

// WorksetParent is the folder WorksetDir lies in (.cache): what to ask git
// about for InWorksetDir.
func WorksetParent() string { return worksetParent }

// TrackedWorksetProblem is the error canon check reports for a path git
// tracks (or is about to) that InWorksetDir names.
func TrackedWorksetProblem(path string) Problem {
	p := Problem{Path: path, Line: 1, Col: 1, Severity: "error", Rule: RuleTrackedWorkset, Target: path}
	rest, under := strings.CutPrefix(path, WorksetDir+"/")
	if !under {
		p.Message = fmt.Sprintf("git tracks %s, where canon keeps this machine's worksets; take it out of git with git rm -q -- %s", path, path)
		return p
	}
	name, _, _ := strings.Cut(rest, "/")
	p.Message = fmt.Sprintf("git tracks a file of the workset folder %s/%s: worksets are per-machine and canon refuses to open one git tracks; take it out of git with git rm -r -q -- %s/%s", WorksetDir, name, WorksetDir, name)
	return p
}
