# .husky/pre-commit
if command -v canon >/dev/null 2>&1; then canon hook pre-commit "$@"; else echo "canon: canon is not on PATH, so the pre-commit hook did nothing" >&2; fi
# .husky/post-commit
if command -v canon >/dev/null 2>&1; then canon hook post-commit "$@"; else echo "canon: canon is not on PATH, so the post-commit hook did nothing" >&2; fi
# .husky/post-checkout
if command -v canon >/dev/null 2>&1; then canon hook post-checkout "$@"; else echo "canon: canon is not on PATH, so the post-checkout hook did nothing" >&2; fi
# .husky/post-merge
if command -v canon >/dev/null 2>&1; then canon hook post-merge "$@"; else echo "canon: canon is not on PATH, so the post-merge hook did nothing" >&2; fi
# .husky/post-rewrite
if command -v canon >/dev/null 2>&1; then canon hook post-rewrite "$@"; else echo "canon: canon is not on PATH, so the post-rewrite hook did nothing" >&2; fi
# .husky/pre-push
if command -v canon >/dev/null 2>&1; then canon hook pre-push "$@"; else echo "canon: canon is not on PATH, so the pre-push hook did nothing" >&2; fi
