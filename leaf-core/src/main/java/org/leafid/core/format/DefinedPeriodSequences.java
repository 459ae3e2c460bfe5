package org.leafid.core.format;

import java.util.OptionalLong;
import org.leafid.core.IdGenerator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A format's period sequences, served only once the fleet's registry holds this server's definition
 * of the format's tag: the first use records it (or finds it recorded), a definition that differs is
 * refused ({@link FormatConflictException}, logged once), and a registry that cannot be reached leaves
 * the format unserved until it answers. Checked when a period's sequence is first looked up, never per
 * string.
 */
public final class DefinedPeriodSequences implements PeriodSequences {

    private static final Logger log = LoggerFactory.getLogger(DefinedPeriodSequences.class);

    private final String format;
    private final String tag;
    private final String definition;
    private final FormatDefinitionRegistry registry;
    private final PeriodSequences sequences;
    private volatile boolean confirmed;
    private volatile boolean conflictLogged;

    public DefinedPeriodSequences(String format, String tag, String definition, FormatDefinitionRegistry registry,
            PeriodSequences sequences) {
        this.format = format;
        this.tag = tag;
        this.definition = definition;
        this.registry = registry;
        this.sequences = sequences;
    }

    /**
     * The definition's check now, for the start's log: throws as a period's first lookup would.
     *
     * @throws FormatConflictException when another definition is recorded
     */
    public void check() {
        if (confirmed) {
            return;
        }
        String recorded = registry.claim(tag, definition);
        if (!recorded.equals(definition)) {
            FormatConflictException conflict = new FormatConflictException(format, tag, definition, recorded);
            if (!conflictLogged) {
                conflictLogged = true;
                log.warn("{}; its requests are answered 503 format-conflict", conflict.getMessage());
            }
            throw conflict;
        }
        confirmed = true;
    }

    @Override
    public IdGenerator sequence(String period) {
        check();
        return sequences.sequence(period);
    }

    @Override
    public void prepare(String period) {
        if (confirmed) {
            sequences.prepare(period);
        }
    }

    @Override
    public OptionalLong nextNumber(String period) {
        check();
        return sequences.nextNumber(period);
    }

    @Override
    public long issuedCount() {
        return sequences.issuedCount();
    }
}
