// libxml2 for the TTML reader.
#ifndef CCAPTIONS_XML_SHIM_H
#define CCAPTIONS_XML_SHIM_H

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>
#include <libxml/xmlreader.h>

/// xmlFree, which Swift sees as a mutable global function pointer.
static inline void ccaptions_xml_free(void *pointer) { xmlFree(pointer); }

#endif
