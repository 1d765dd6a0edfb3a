package dev.idempotency.examples.shop.loans;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import java.util.List;

/** Loans and their ledger in the database. */
@ApplicationScoped
public class LoanService {

    @PersistenceContext(unitName = "shop")
    EntityManager em;

    /**
     * Opens a loan.
     *
     * @param request a validated request
     * @return the new loan
     */
    @Transactional
    public LoanView open(LoanRequest request) {
        Loan loan = new Loan(request.borrower().strip(), request.principal(), request.lateFee());
        em.persist(loan);
        em.flush();
        return loan.view();
    }

    /**
     * One loan.
     *
     * @param id the loan number
     * @return the loan, or null
     */
    public LoanView find(long id) {
        Loan loan = em.find(Loan.class, id);
        return loan == null ? null : loan.view();
    }

    /**
     * Every loan, newest first.
     *
     * @return at most 200 loans
     */
    public List<LoanView> list() {
        return em
                .createQuery("select l from Loan l order by l.id desc", Loan.class)
                .setMaxResults(200)
                .getResultList()
                .stream()
                .map(Loan::view)
                .toList();
    }

    /**
     * The ledger rows of a loan: one per settlement that really ran.
     *
     * @param loanId the loan
     * @return its rows, oldest first
     */
    public List<RepaymentEntryView> entries(long loanId) {
        return em
                .createQuery("select e from RepaymentEntry e where e.loanId = :l order by e.id", RepaymentEntry.class)
                .setParameter("l", loanId)
                .getResultList()
                .stream()
                .map(RepaymentEntry::view)
                .toList();
    }
}
