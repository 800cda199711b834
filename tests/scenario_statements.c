/* SPDX-License-Identifier: BSD-3-Clause */
/* Keeps the scenario language's statement table (src/scenario/
 * statements.def) and docs/scenario-language.md in step:
 *   scenario_statements DOC          checks DOC against the table
 *   scenario_statements --markdown   prints the list DOC must hold
 * The checks: the table is in name order and each name is found by the
 * interpreter's lookup; DOC holds the generated list (between the two
 * markers) as the table makes it; every statement is named in a table of
 * the sections (a row's first cell), and every such row names a statement;
 * the sentence on `=>` names the statements the interpreter accepts it on. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenario/statements.h"

#define BEGIN_MARK "<!-- statements: begin (generated from src/scenario/statements.def) -->\n"
#define END_MARK   "<!-- statements: end -->\n"

typedef struct text {
    char *s;
    size_t len, cap;
} text;

static void append(text *t, const char *s)
{
    const size_t n = strlen(s);
    if (t->len + n + 1 > t->cap) {
        t->cap = (t->len + n + 1) * 2;
        t->s = realloc(t->s, t->cap);
        if (!t->s) {
            fprintf(stderr, "scenario_statements: out of memory\n");
            exit(2);
        }
    }
    memcpy(t->s + t->len, s, n + 1);
    t->len += n;
}

/* s with '|' escaped, as a Markdown table cell needs. */
static void append_cell(text *t, const char *s)
{
    for (char c[2] = {0, 0}; (c[0] = *s) != 0; s++)
        append(t, c[0] == '|' ? "\\|" : c);
}

/* The list the document holds, markers included. */
static void markdown(text *t)
{
    append(t, BEGIN_MARK);
    append(t, "| statement | `=>` | what it does |\n| --- | --- | --- |\n");
    const scenario_statement_info *s;
    for (size_t i = 0; (s = scenario_statement_at(i)) != NULL; i++) {
        append(t, "| `");
        append_cell(t, s->name);
        if (*s->synopsis) append(t, " ");
        append_cell(t, s->synopsis);
        append(t, s->expects == SCENARIO_EXPECTS_OUTCOME   ? "` | outcome | "
                  : s->expects == SCENARIO_EXPECTS_VERDICT ? "` | verdict | "
                                                           : "` | | ");
        append_cell(t, s->doc);
        append(t, " |\n");
    }
    append(t, END_MARK);
}

/* What the checks found. */
typedef struct checks {
    int failures;
    bool named[256]; /* statement i is named in a section's table */
} checks;

static void fail(checks *c, const char *what, const char *name)
{
    fprintf(stderr, "scenario_statements: %s: %s\n", what, name);
    c->failures++;
}

static void check_table(checks *c)
{
    const scenario_statement_info *s, *prev = NULL;
    for (size_t i = 0; (s = scenario_statement_at(i)) != NULL; prev = s, i++) {
        if (prev && strcmp(prev->name, s->name) >= 0)
            fail(c, "statements.def is not in strcmp() order (the lookup is a binary search) at",
                 s->name);
        if (scenario_statement_find(s->name) != s) fail(c, "the lookup does not find", s->name);
        if (!*s->doc) fail(c, "statements.def gives no description of", s->name);
    }
    static const char *const not_statements[] = {"", "frobnicate", "MRS", "a", "zz", "pstate"};
    for (size_t i = 0; i < sizeof not_statements / sizeof not_statements[0]; i++)
        if (scenario_statement_find(not_statements[i]))
            fail(c, "the lookup finds a statement that is not declared", not_statements[i]);
}

/* The first word of each backquoted span in the first cell of a row of the
 * sections' statement tables (header "| statement |" or "| check |"):
 * calls seen(word, first) for each, first for the row's first span. */
static void table_rows(const char *doc, checks *c,
                       void (*seen)(checks *c, const char *word, bool first))
{
    bool in_table = false;
    for (const char *line = doc; *line;) {
        const char *eol = strchr(line, '\n');
        const size_t len = eol ? (size_t)(eol - line) : strlen(line);
        if (!strncmp(line, "| statement |", 13) || !strncmp(line, "| check |", 9))
            in_table = true;
        else if (len == 0 || line[0] != '|')
            in_table = false;
        else if (in_table && strncmp(line, "| ---", 5)) {
            const char *cell_end = strstr(line + 1, " | ");
            bool first = true;
            for (const char *p = line; p && p < cell_end; first = false) {
                const char *open = strchr(p, '`');
                if (!open || open >= cell_end) break;
                const char *close = strchr(open + 1, '`');
                if (!close) break;
                char word[64];
                size_t n = strcspn(open + 1, " `");
                if (n >= sizeof word) n = sizeof word - 1;
                memcpy(word, open + 1, n);
                word[n] = 0;
                seen(c, word, first);
                p = close + 1;
            }
        }
        line += len + (eol != NULL);
    }
}

static void row_word(checks *c, const char *word, bool first)
{
    const scenario_statement_info *s = scenario_statement_find(word);
    const scenario_statement_info *at;
    for (size_t i = 0; s && (at = scenario_statement_at(i)) != NULL; i++)
        if (at == s && i < sizeof c->named) c->named[i] = true;
    if (first && !s) fail(c, "a table row names a statement statements.def does not declare", word);
}

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        exit(2);
    }
    text t = {0};
    char buf[4096];
    size_t got;
    while ((got = fread(buf, 1, sizeof buf - 1, f)) > 0) {
        buf[got] = 0;
        append(&t, buf);
    }
    fclose(f);
    if (!t.s) append(&t, "");
    return t.s;
}

int main(int argc, char **argv)
{
    text want = {0};
    markdown(&want);
    if (argc == 2 && !strcmp(argv[1], "--markdown")) {
        fputs(want.s, stdout);
        return 0;
    }
    if (argc != 2) {
        fprintf(stderr, "usage: scenario_statements DOC | --markdown\n");
        return 2;
    }
    char *doc = read_file(argv[1]);
    checks found = {0}, *c = &found;
    check_table(c);

    /* The generated list, as the table makes it now. */
    char *begin = strstr(doc, BEGIN_MARK);
    char *end = begin ? strstr(begin, END_MARK) : NULL;
    if (!begin || !end)
        fail(c, "no list of statements between the markers", BEGIN_MARK);
    else if (strncmp(begin, want.s, want.len) ||
             (size_t)(end - begin) + strlen(END_MARK) != want.len)
        fail(c,
             "the list of statements is not the table's (paste `scenario_statements "
             "--markdown`)",
             "differs");

    /* The sections, without the generated list. */
    if (begin && end) memmove(begin, end + strlen(END_MARK), strlen(end + strlen(END_MARK)) + 1);
    table_rows(doc, c, row_word);
    const scenario_statement_info *s;
    for (size_t i = 0; (s = scenario_statement_at(i)) != NULL; i++)
        if (i >= sizeof c->named || !c->named[i])
            fail(c, "no section's table describes the statement", s->name);

    /* "`mrs`, `msr`, ... and `validate` may end with `=> EXPECTATION`" */
    char names[256];
    scenario_expectation_statements(names, sizeof names);
    text sentence = {0};
    append(&sentence, "`");
    for (const char *p = names; *p;) { /* each name in backquotes */
        const size_t sep = !strncmp(p, ", ", 2) ? 2 : !strncmp(p, " and ", 5) ? 5 : 0;
        const char letter[2] = {*p, 0};
        append(&sentence, sep == 2 ? "`, `" : sep == 5 ? "` and `" : letter);
        p += sep ? sep : 1;
    }
    append(&sentence, "` may end with `=> EXPECTATION`");
    if (!strstr(doc, sentence.s))
        fail(c, "the statements '=>' can follow are not named as the interpreter has them",
             sentence.s);

    free(sentence.s);
    free(doc);
    free(want.s);
    if (c->failures) return 1;
    size_t n = 0;
    while (scenario_statement_at(n))
        n++;
    printf("%zu statements: the table and the document agree\n", n);
    return 0;
}
