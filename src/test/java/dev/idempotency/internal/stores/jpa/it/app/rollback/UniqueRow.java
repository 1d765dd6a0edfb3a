package dev.idempotency.internal.stores.jpa.it.app.rollback;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** A row of a table with a primary key: persisting one whose id exists fails on flush. */
@Entity
@Table(name = "jpa_it_unique")
public class UniqueRow {

    @Id
    private String id;

    protected UniqueRow() {}

    /** @param id the primary key */
    public UniqueRow(String id) {
        this.id = id;
    }

    /** The primary key. */
    public String getId() {
        return id;
    }
}
