/* read.c: the entry points: parse the documents with libxml2 (its messages
 * become diagnostics), gather the module templates, build the architecture
 * and check it by flattening once. */
#include <libxml/parser.h>
#include <libxml/xmlversion.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

#include "../common/input.h"
#include "xml.h"
#include "xml_internal.h"

/* The first libxml2 error of a parse (later ones are mostly fallout). */
typedef struct first_error {
    char msg[512];
    int line;
    bool set;
} first_error;

/* libxml2 calls this per error with the parser context as user data; the
 * context's _private points at our first_error, so no global state. */
#if LIBXML_VERSION >= 21200
typedef const xmlError *error_ptr;
#else
typedef xmlError *error_ptr;
#endif
static void on_error(void *ctx, error_ptr e)
{
    first_error *fe = ((xmlParserCtxt *)ctx)->_private;
    if (fe->set || !e || !e->message)
        return;
    snprintf(fe->msg, sizeof fe->msg, "%s", e->message);
    size_t n = strlen(fe->msg);
    while (n && (fe->msg[n - 1] == '\n' || fe->msg[n - 1] == ' '))
        fe->msg[--n] = 0;
    fe->line = e->line;
    fe->set = true;
}

/* The first entity reference under n (element content or an attribute
 * value), with the element it is in; NULL when there is none.  libxml2
 * keeps a reference to a declared (or, with an external DTD, undeclared)
 * entity as a node of its own, which every reader here would skip: the
 * text it stands for would be dropped without a word.  Expanding them
 * (XML_PARSE_NOENT) would instead open the door to external entities and
 * entity bombs, so a reference is an error. */
static const xmlNode *entity_ref(const xmlNode *n, const xmlNode **in)
{
    for (; n; n = n->next) {
        if (n->type == XML_ENTITY_REF_NODE) {
            *in = n->parent;
            return n;
        }
        if (n->type != XML_ELEMENT_NODE)
            continue;
        for (const xmlAttr *a = n->properties; a; a = a->next)
            for (const xmlNode *v = a->children; v; v = v->next)
                if (v->type == XML_ENTITY_REF_NODE) {
                    *in = n;
                    return v;
                }
        const xmlNode *r = entity_ref(n->children, in);
        if (r)
            return r;
    }
    return NULL;
}

/* -1 after reporting the first entity reference in doc. */
static int no_entity_refs(const char *path, xmlDoc *doc, cg_diags *d)
{
    const xmlNode *in = NULL;
    const xmlNode *r = entity_ref(doc->children, &in);
    if (!r)
        return 0;
    cg_diags_add(d, CG_SEV_ERROR, path, in ? (int)xmlGetLineNo(in) : 0,
                 "entity reference '&%s;' in <%s>; cgramap does not expand "
                 "XML entities: write out the text it stands for",
                 (const char *)r->name, in ? (const char *)in->name : "");
    return -1;
}

/* Parse text named path; NULL after reporting libxml2's first message with
 * its line, or the first entity reference (no_entity_refs). */
static xmlDoc *parse(const char *path, const char *text, cg_diags *d)
{
    xmlParserCtxt *ctxt = xmlNewParserCtxt();
    if (!ctxt) {
        cg_diags_add(d, CG_SEV_ERROR, path, 0, "out of memory");
        return NULL;
    }
    first_error fe = {.set = false};
    ctxt->_private = &fe;
    ctxt->sax->serror = on_error;
    int opts = XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING;
    xmlDoc *doc = xmlCtxtReadMemory(ctxt, text, (int)strlen(text), path,
                                    NULL, opts);
    if (!doc || !ctxt->wellFormed || fe.set) {
        cg_diags_add(d, CG_SEV_ERROR, path, fe.set ? fe.line : 0,
                     "malformed XML: %s; fix the XML syntax there",
                     fe.set ? fe.msg : "the parser gave up");
        xmlFreeDoc(doc);
        doc = NULL;
    } else if (no_entity_refs(path, doc, d) != 0) {
        xmlFreeDoc(doc);
        doc = NULL;
    }
    xmlFreeParserCtxt(ctxt);
    if (doc) /* its text, for the lines of attributes (cg__xml_attr_line) */
        doc->_private = (void *)(uintptr_t)text;
    return doc;
}

/* The <architecture> to build: the root itself or the only one in <cgra>. */
static xmlNode *find_arch(cg__xctx *c, xmlNode *root)
{
    if (!strcmp((const char *)root->name, "architecture"))
        return root;
    xmlNode *found = NULL;
    for (xmlNode *k = root->children; k; k = k->next) {
        if (k->type != XML_ELEMENT_NODE ||
            strcmp((const char *)k->name, "architecture"))
            continue;
        if (found) {
            cg__xml_error(c, k, "second <architecture> (the first is at line "
                          "%d); a file describes one array",
                          cg__xml_line(found));
            return NULL;
        }
        found = k;
    }
    if (!found)
        cg__xml_error(c, root, "<cgra> has no <architecture>; add one with "
                      "the grid's blocks");
    return found;
}


const char *cg_xml_default_templates(void)
{
    return cg__xml_default_templates_text;
}

static int build(cg__xctx *c, xmlDoc *doc, xmlDoc *tdoc)
{
    if (tdoc) {
        xmlNode *troot = xmlDocGetRootElement(tdoc);
        if (!troot || strcmp((const char *)troot->name, "templates")) {
            cg__xml_error(c, troot ? troot : (xmlNode *)tdoc,
                          "the templates file's root must be <templates>, "
                          "not <%s>", troot ? (const char *)troot->name : "");
            return -1;
        }
        cg__xml_collect(c, troot, false);
    }
    xmlNode *root = xmlDocGetRootElement(doc);
    const char *rn = root ? (const char *)root->name : "";
    if (strcmp(rn, "cgra") && strcmp(rn, "architecture")) {
        cg__xml_error(c, root ? root : (xmlNode *)doc, "unknown root tag <%s>"
                      " (expected: cgra, or architecture with a templates "
                      "file)", rn);
        return -1;
    }
    if (!strcmp(rn, "cgra"))
        cg__xml_collect(c, root, true);
    xmlNode *arch = find_arch(c, root);
    if (!arch || cg__xml_failed(c))
        return -1;
    return cg__xml_architecture(c, arch);
}

/* Flatten a once for its errors (unknown ports, double drivers, widths),
 * passed on to d with their notes.  Its warnings are left to the caller's
 * own flatten, which every user of an architecture does: passed on here
 * too, each was printed twice. */
static void check_by_flattening(const cg_arch *a, cg_diags *d)
{
    cg_diags *all = cg_diags_create();
    if (!all) {
        cg_diags_add(d, CG_SEV_ERROR, NULL, 0, "out of memory while reading "
                     "the architecture");
        return;
    }
    cg_netlist_destroy(cg_arch_flatten(a, all));
    bool keep = false;
    for (int i = 0; i < cg_diags_size(all); i++) {
        const cg_diag *e = cg_diags_get(all, i);
        if (e->sev != CG_SEV_NOTE)
            keep = e->sev == CG_SEV_ERROR;
        if (keep)
            cg_diags_add(d, e->sev, e->file, e->line, "%s", e->msg);
    }
    cg_diags_destroy(all);
}

static cg_arch *read_docs(xmlDoc *doc, xmlDoc *tdoc, bool dflt,
                          cg_diags *d)
{
    cg__xctx c = {0};
    c.d = d;
    c.default_templates = dflt;
    c.errors0 = cg_diags_errors(d);
    c.a = cg_arch_create();
    int rc = c.a ? build(&c, doc, tdoc) : -1;
    if (rc == 0 && !cg__xml_failed(&c))
        check_by_flattening(c.a, d);
    free(c.tmpls);
    cg_strmap_destroy(c.tmpl_ix);
    cg_strmap_destroy(c.reported);
    free(c.cell_line);
    /* Every other failure reported itself: this one is an allocation. */
    if (rc < 0 && !cg__xml_failed(&c))
        cg_diags_add(d, CG_SEV_ERROR, NULL, 0, "out of memory while reading "
                     "the architecture");
    if (rc < 0 || cg__xml_failed(&c)) {
        cg_arch_destroy(c.a);
        return NULL;
    }
    return c.a;
}

cg_arch *cg_xml_read_memory(const char *text, const char *name,
                            const char *templates_text,
                            const char *templates_name, cg_diags *d)
{
    xmlDoc *doc = parse(name, text, d);
    xmlNode *root = doc ? xmlDocGetRootElement(doc) : NULL;
    /* CGRA-ME's ADL1 falls back on its module_templates.xml likewise. */
    bool dflt = !templates_text && root &&
                !strcmp((const char *)root->name, "architecture");
    if (dflt) {
        templates_text = cg_xml_default_templates();
        templates_name = CG_XML_DEFAULT_TEMPLATES_NAME;
    }
    xmlDoc *tdoc = templates_text ? parse(templates_name, templates_text, d)
                                  : NULL;
    cg_arch *a = NULL;
    if (doc && (tdoc || !templates_text))
        a = read_docs(doc, tdoc, dflt, d);
    xmlFreeDoc(doc);
    xmlFreeDoc(tdoc);
    return a;
}

cg_arch *cg_xml_read(const char *path, const char *templates_path,
                     cg_diags *d)
{
    char *text = cg_input_read(path, "an .xml file", NULL, d);
    char *ttext = templates_path ? cg_input_read(templates_path,
                                                 "an .xml file", NULL, d)
                                 : NULL;
    cg_arch *a = NULL;
    if (text && (ttext || !templates_path))
        a = cg_xml_read_memory(text, path, ttext, templates_path, d);
    free(text);
    free(ttext);
    return a;
}
