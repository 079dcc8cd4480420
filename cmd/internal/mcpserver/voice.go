package mcpserver

import (
	"strings"

	"github.com/canon-md/canon/index/lazyre"
)

// workCountRE is ready's and blocked's count line: "31 ready (…)".
var workCountRE = lazyre.MustCompile(`^[0-9]+ (ready|blocked)\b`)

// An agent talks to canon through tools, not a shell: the hints canon's
// answers share with the command line ("--limit N or --all", "canon
// ready --here lists them") are said in the tools' words here. Only
// canon's own lines are changed: the lines of a tool whose answer quotes
// no document, and a pack's summary lines (a document may say anything).

// toolWords are the command line's hints and the tools' words for them.
var toolWords = strings.NewReplacer(
	": --limit N or --all)", ": limit: N or all: true)",
	"(canon ready --here lists them)", "(ready with here: true lists them)",
	"(canon blocked)", "(the blocked tool)",
	"(canon ready)", "(the ready tool)",
	"(--json lists them)", "(the structured content lists them)",
	"(see --json)", "(see the structured content)",
	"(--depth reaches further)", "(the neighbors tool, with depth, reaches further)",
	"(--commit commits it alone)", "(commit: true commits it alone)",
	"no worksets; canon workset new NAME --seed ID creates one", "no worksets; workset_new with a name and seeds creates one",
	"(canon workset show)", "(workset_show)",
	"canon query list shows them", "prompts/list names them (each template is a prompt)",
	"canon problems counts again", "check with all: true counts again",
	"(canon problems lists them)", "(check with all: true lists them)",
	"see canon problems", "see check with all: true",
	"stopped at --max-nodes", "stopped at its node limit",
	"left out by the budget (--budget sets it)", "left out by the budget (budget sets it)",
)

// quotingTools answer with documents' text: only their summary lines are
// canon's.
var quotingTools = map[string]bool{"context": true, "workset_context": true, "show": true, "search": true, "promote": true, "workset_resume": true}

// summaryPrefixes start a pack's own lines.
var summaryPrefixes = []string{"About ", "Left out: ", "Stopped", "Budget", "  … about "}

// inToolWords says a tool's answer in the tools' words: its last line
// (where every answer puts canon's own summary: "31 ready (…)", "wrote
// X; nothing is committed (…)") and a pack's summary lines; the lines
// before quote documents (a title may say anything).
func inToolWords(tool, txt string) string {
	lines := strings.SplitAfter(txt, "\n")
	last := len(lines) - 1
	for last > 0 && strings.TrimSpace(lines[last]) == "" {
		last--
	}
	for i, l := range lines {
		own := (i == last || workCountRE.MatchString(l)) && !quotingTools[tool]
		for _, p := range summaryPrefixes {
			own = own || quotingTools[tool] && strings.HasPrefix(l, p)
		}
		if own {
			lines[i] = toolWords.Replace(l)
		}
	}
	return strings.Join(lines, "")
}
