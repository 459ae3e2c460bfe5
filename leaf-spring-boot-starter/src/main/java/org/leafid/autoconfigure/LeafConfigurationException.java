package org.leafid.autoconfigure;

/**
 * A {@code leaf.*} setting that stops the start: which key, what is wrong with it, and what to do.
 * {@link LeafConfigurationFailureAnalyzer} turns it into Spring Boot's "APPLICATION FAILED TO
 * START" summary. An {@link IllegalArgumentException}, as the records' other checks throw.
 */
public class LeafConfigurationException extends IllegalArgumentException {

    private final String key;
    private final String problem;
    private final String fix;

    /**
     * @param key the key (or keys, comma-separated) at fault, as a user writes it
     * @param problem what is wrong, a sentence that may name the value
     * @param fix what to change
     */
    public LeafConfigurationException(String key, String problem, String fix) {
        super(key + " " + problem + " " + fix);
        this.key = key;
        this.problem = problem;
        this.fix = fix;
    }

    public String key() {
        return key;
    }

    public String problem() {
        return problem;
    }

    public String fix() {
        return fix;
    }
}
