package org.vectorjce.volumes.luks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * The JSON splicer on text shaped to trip a scanner: braces, brackets, commas and escaped quotes
 * inside strings, an escaped member name, white space everywhere. Each edit's expected text is
 * written out by hand; everything outside the edited member must stay as it was.
 */
class JsonSpliceTest {
    static final String TEXT = "{ \"keyslots\" : { \"0\" : {\"s\":\"}{,]\\\"[\"} ,\n\t\"2\":[1, {\"x\":\"]\"}] } ,"
            + "\"k\\u0065y\":\"v\", \"tokens\":{}, \"d\":{\"0\":{\"keyslots\":[\"0\",\"2\"], \"n\":-1.5e3}} }";

    private static JsonSplice splice() throws Exception {
        Json.parse(TEXT); // the splicer's precondition: valid JSON
        return new JsonSplice(TEXT);
    }

    @Test
    void findsValuesByDecodedName() throws Exception {
        JsonSplice j = splice();
        assertEquals("{\"s\":\"}{,]\\\"[\"}", j.value("keyslots", "0"));
        assertEquals("[1, {\"x\":\"]\"}]", j.value("keyslots", "2"));
        assertEquals("\"v\"", j.value("key"));
        assertEquals("[\"0\",\"2\"]", j.value("d", "0", "keyslots"));
        assertEquals("-1.5e3", j.value("d", "0", "n"));
        assertEquals(null, j.value("keyslots", "1"));
        assertEquals(List.of("0", "2"), j.names("keyslots"));
    }

    @Test
    void insertsAfterTheLastMemberOrIntoAnEmptyObject() throws Exception {
        JsonSplice j = splice();
        j.insert(new String[] {"keyslots"}, "1", "{}");
        j.insert(new String[] {"tokens"}, "0", "{\"a\":1}");
        assertEquals("{ \"keyslots\" : { \"0\" : {\"s\":\"}{,]\\\"[\"} ,\n\t\"2\":[1, {\"x\":\"]\"}],\"1\":{} } ,"
                + "\"k\\u0065y\":\"v\", \"tokens\":{\"0\":{\"a\":1}}, \"d\":{\"0\":{\"keyslots\":[\"0\",\"2\"], "
                + "\"n\":-1.5e3}} }", j.text());
        assertThrows(IllegalArgumentException.class, () -> j.insert(new String[] {"keyslots"}, "0", "{}"));
    }

    @Test
    void removesFirstMiddleAndLastMembersWithOneComma() throws Exception {
        JsonSplice j = splice();
        j.remove(new String[] {"keyslots"}, "0");
        assertEquals("{ \"keyslots\" : { \"2\":[1, {\"x\":\"]\"}] } ,\"k\\u0065y\":\"v\", \"tokens\":{}, "
                + "\"d\":{\"0\":{\"keyslots\":[\"0\",\"2\"], \"n\":-1.5e3}} }", j.text());
        j.remove(new String[] {"keyslots"}, "2");
        j.remove(new String[0], "key");
        j.remove(new String[] {"d", "0"}, "n");
        assertEquals("{ \"keyslots\" : {  } ,\"tokens\":{}, \"d\":{\"0\":{\"keyslots\":[\"0\",\"2\"]}} }", j.text());
        Json.parse(j.text());
    }

    @Test
    void replacesOneValue() throws Exception {
        JsonSplice j = splice();
        j.replace(new String[] {"d", "0", "keyslots"}, JsonSplice.stringArray(List.of("2")));
        assertEquals(TEXT.replace("[\"0\",\"2\"]", "[\"2\"]"), j.text());
        assertEquals("\"a\\\"b\\\\c\\u0001\"", JsonSplice.quote("a\"b\\c\u0001"));
    }
}
