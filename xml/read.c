/* read.c: the entry points: parse the documents with libxml2 (its messages
 * become diagnostics), gather the module templates, build the architecture
 * and check it by flattening once. */
#include <libxml/parser.h>
#include <stdlib.h>
#include <string.h>

#include "xml.h"
#include "xml_internal.h"

/* Parse from a file (text == NULL) or from memory; NULL after reporting
 * libxml2's message with its line. */
static xmlDoc *parse(const char *path, const char *text, cg_diags *d)
{
    xmlParserCtxt *ctxt = xmlNewParserCtxt();
    if (!ctxt) {
        cg_diags_add(d, CG_SEV_ERROR, path, 0, "out of memory");
        return NULL;
    }
    int opts = XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING;
    xmlDoc *doc = text ? xmlCtxtReadMemory(ctxt, text, (int)strlen(text),
                                           path, NULL, opts)
                       : xmlCtxtReadFile(ctxt, path, NULL, opts);
    if (!doc || !ctxt->wellFormed) {
        const xmlError *e = xmlCtxtGetLastError(ctxt);
        char msg[512] = "cannot read the file";
        int line = 0;
        if (e && e->message) {
            snprintf(msg, sizeof msg, "%s", e->message);
            size_t n = strlen(msg);
            while (n && (msg[n - 1] == '\n' || msg[n - 1] == ' '))
                msg[--n] = 0;
            line = e->line;
        }
        cg_diags_add(d, CG_SEV_ERROR, path, line, "malformed XML: %s; fix the "
                     "XML syntax there", msg);
        xmlFreeDoc(doc);
        doc = NULL;
    }
    xmlFreeParserCtxt(ctxt);
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

static cg_arch *read_docs(xmlDoc *doc, xmlDoc *tdoc, cg_diags *d)
{
    cg__xctx c = {0};
    c.d = d;
    c.errors0 = cg_diags_errors(d);
    c.a = cg_arch_create();
    int rc = c.a ? build(&c, doc, tdoc) : -1;
    if (rc == 0 && !cg__xml_failed(&c)) {
        cg_netlist_destroy(cg_arch_flatten(c.a, d));
    }
    free(c.tmpls);
    free(c.cell_line);
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
    xmlDoc *tdoc = templates_text ? parse(templates_name, templates_text, d)
                                  : NULL;
    cg_arch *a = NULL;
    if (doc && (tdoc || !templates_text))
        a = read_docs(doc, tdoc, d);
    xmlFreeDoc(doc);
    xmlFreeDoc(tdoc);
    return a;
}

cg_arch *cg_xml_read(const char *path, const char *templates_path,
                     cg_diags *d)
{
    xmlDoc *doc = parse(path, NULL, d);
    xmlDoc *tdoc = templates_path ? parse(templates_path, NULL, d) : NULL;
    cg_arch *a = NULL;
    if (doc && (tdoc || !templates_path))
        a = read_docs(doc, tdoc, d);
    xmlFreeDoc(doc);
    xmlFreeDoc(tdoc);
    return a;
}
