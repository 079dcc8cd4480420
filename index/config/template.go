package config

// Template is the commented configuration `canon init` writes. Every value in
// it is the default, so the file documents the defaults; a test keeps the two
// equal.
const Template = templateIndex + templateStates + templateContext + templateCheck + templateWorkset + templateWatch

const templateIndex = `# canon configuration. Every key is optional; the values below are the
# defaults. Run "canon index --full" after a change (canon notices and
# rebuilds by itself on the next command).

# Folders (relative to the repository root) whose *.md files are documents.
roots: ["."]

# Paths that are never documents, in .gitignore syntax. .gitignore files,
# .git/info/exclude, .git and .cache are always honoured as well.
exclude:
  - node_modules/
  - vendor/
  - third_party/

# Files larger than this are skipped and reported as a problem.
max_file_size: 5MB

# Frontmatter field (dotted for nested keys) -> edge type. Entries here are
# added to the defaults; map a field to "none" to drop a default.
edges:
  parent: parent
  links.relates: relates
  relates: relates
  links.blocks: blocks
  blocks: blocks
  links.blocked_by: blocked_by
  blocked_by: blocked_by
  depends_on: depends_on
  links.depends_on: depends_on
  decisions: decision_ref
  related_items: relates
  supersedes: supersedes
  superseded_by: supersedes
  replaces: supersedes
  group: group

# The frontmatter "type" value (any case) -> kind. Unknown types are kept as
# written. Without a type, an ADR-NNNN id (or, without an id, an ADR-NNNN
# file name that is not an appendix) means adr; an id whose prefix is named
# here (task-12, or BACK-12 when prefixes maps task to back) has its kind;
# anything else is a doc.
kinds:
  epic: epic
  feature: feature
  userstory: story
  user story: story
  user_story: story
  story: story
  task: task
  subtask: task
  sub-task: task
  bug: bug
  adr: adr
  decision: adr
  index: index
  group: group

# Folders that are id spaces of their own: a product of a Kano backlog, a
# service of a monorepo. Documents in two namespaces may share an id, and a
# reference resolves inside its own namespace first, then in the whole
# repository. A glob's wildcards name each namespace (NAMESPACE:ID on the
# command line); write {path: FOLDER, name: NAME, states: [...]} to name one
# or give its work items states of their own. The products of a Kano project
# (.kano/backlog_config.toml) are added by themselves, with the states of
# their process profiles.
namespaces:
  - _kano/backlog/products/*

# An id prefix the repository once used -> the one it uses now: a reference
# OLD-NUMBER, or a bare NUMBER, that names no document names NEW-NUMBER, as
# Backlog.md reads task-4 once task_prefix is back. canon init learns it.
# prefixes: {task: back}
`
