/* xml.h: the XML architecture language front end of cgramap.
 *
 * Reads a CGRA-ME style architecture description (docs/xml.md) into a
 * cg_arch.  Parameters, if= conditions, patterns and the mesh sugar are
 * resolved here; the result is a plain cg_arch with one concrete module per
 * distinct (module template, parameter set).
 *
 * Every problem is reported into d as "file:line: error: message".  The
 * architecture is flattened once to check names, ports and widths (the
 * flatten warnings land in d too); on any error the result is NULL and
 * everything built is freed.
 */
#ifndef CG_XML_H
#define CG_XML_H

#include "../arch/arch.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Read the architecture file at path.  templates_path (may be NULL) names a
 * second file whose <templates> root holds module templates used by it.
 * A file whose root is <architecture> (CGRA-ME's ADL1) given no templates
 * takes cgramap's default ones (cg_xml_default_templates). */
cg_arch *cg_xml_read(const char *path, const char *templates_path,
                     cg_diags *d);

/* Same from memory: text is named `name` in messages; templates_text (may be
 * NULL) is named templates_name. */
cg_arch *cg_xml_read_memory(const char *text, const char *name,
                            const char *templates_text,
                            const char *templates_name, cg_diags *d);

/* cgramap's default templates for ADL1 files (xml/module_templates.xml,
 * built in; installed as share/cgramap/module_templates.xml): modules with
 * the names and ports of CGRA-ME's templates.  Messages about them name
 * CG_XML_DEFAULT_TEMPLATES_NAME. */
#define CG_XML_DEFAULT_TEMPLATES_NAME "cgramap/module_templates.xml"
const char *cg_xml_default_templates(void);

#ifdef __cplusplus
}
#endif

#endif
