// libxml2 for the TTML reader.
#ifndef CCAPTIONS_XML_SHIM_H
#define CCAPTIONS_XML_SHIM_H

#include <stdio.h>
#include <stdlib.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>
#include <libxml/xmlreader.h>

/// The libxml2 version in use (xmlParserVersion, such as "21004"), as a dotted string.
static inline const char *ccaptions_xml_version(void) {
    static char dotted[32];
    int number = atoi(xmlParserVersion);
    snprintf(dotted, sizeof dotted, "%d.%d.%d", number / 10000, number / 100 % 100, number % 100);
    return dotted;
}

/// xmlFree, which Swift sees as a mutable global function pointer.
static inline void ccaptions_xml_free(void *pointer) { xmlFree(pointer); }

/// A structured error handler that prints nothing: libxml2 reports some problems (an `xml:id`
/// that is not an NCName) on standard error even with XML_PARSE_NOERROR; the reader takes the
/// error it needs from xmlGetLastError instead.
static inline void ccaptions_xml_silent(void *context, const xmlError *error) {
    (void)context;
    (void)error;
}

/// Makes `reader` print nothing.
static inline void ccaptions_xml_reader_silence(xmlTextReaderPtr reader) {
    xmlTextReaderSetStructuredErrorHandler(reader, (xmlStructuredErrorFunc)ccaptions_xml_silent, NULL);
}

#endif
