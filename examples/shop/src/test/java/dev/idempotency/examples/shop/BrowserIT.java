package dev.idempotency.examples.shop;

import static dev.idempotency.examples.shop.ShopClient.unique;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The demo page in a real headless Chromium: five quick clicks on "Place order" place one order, and
 * the page shows which answers were replays and which were 409s. Uses the Debian packages {@code
 * chromium} and {@code chromium-driver}; nothing downloads a browser or a driver.
 */
@ExtendWith(ShopServer.class)
class BrowserIT {

    private static WebDriver browser;
    private static Path profile;

    private final ShopClient shop = new ShopClient();

    @BeforeAll
    static void startBrowser() throws Exception {
        String binary = System.getProperty("chromium.binary", "/usr/bin/chromium");
        String driver = System.getProperty("chromium.driver", "/usr/bin/chromedriver");
        if (!new File(binary).canExecute() || !new File(driver).canExecute()) {
            throw new IllegalStateException(binary + " or " + driver + " is missing: install them with"
                    + " `apt-get install -y chromium chromium-driver` (or point -Dchromium.binary and"
                    + " -Dchromium.driver at a Chromium and its matching chromedriver)");
        }
        // Both paths are given explicitly, so Selenium Manager has nothing to look up or download.
        System.setProperty("webdriver.chrome.driver", driver);
        profile = Files.createTempDirectory("shop-chromium-");
        ChromeOptions options = new ChromeOptions();
        options.setBinary(binary);
        options.addArguments(
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--disable-dev-shm-usage",
                "--window-size=1200,1500",
                "--user-data-dir=" + profile);
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(new File(driver))
                .usingAnyFreePort()
                .build();
        browser = new ChromeDriver(service, options);
        browser.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(60));
    }

    @AfterAll
    static void stopBrowser() throws Exception {
        if (browser != null) {
            browser.quit();
        }
        if (profile != null) {
            try (Stream<Path> paths = Files.walk(profile)) {
                for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }

    private WebDriverWait waitUpTo(int seconds) {
        return new WebDriverWait(browser, Duration.ofSeconds(seconds));
    }

    private List<WebElement> answeredRows() {
        return browser.findElements(By.cssSelector("#responses tbody tr[data-status]"));
    }

    @Test
    void fiveQuickClicksPlaceOneOrderAndThePageShowsReplaysAnd409s() throws Exception {
        String customer = unique("browser");
        browser.get(ShopServer.base().toString());
        waitUpTo(30).until(d -> !d.findElement(By.id("idem-key")).getText().isBlank());

        WebElement name = browser.findElement(By.id("customer"));
        name.clear();
        name.sendKeys(customer);
        new Select(browser.findElement(By.id("product"))).selectByValue("KETTLE");
        WebElement quantity = browser.findElement(By.id("quantity"));
        quantity.clear();
        quantity.sendKeys("2");
        String key = browser.findElement(By.id("idem-key")).getText();

        WebElement submit = browser.findElement(By.id("submit"));
        for (int i = 0; i < 5; i++) {
            submit.click();
        }
        waitUpTo(60).until(d -> answeredRows().size() == 5);

        JsonArray orders = shop.ordersOf(customer);
        assertEquals(1, orders.size(), "five clicks, one order: " + orders);
        JsonObject order = orders.getJsonObject(0);
        assertEquals(2, order.getInt("quantity"));
        assertEquals("KETTLE", order.getString("product"));
        assertEquals(key, browser.findElement(By.id("idem-key")).getText(), "one key for the whole form fill");

        int first = 0;
        for (WebElement row : answeredRows()) {
            String status = row.getAttribute("data-status");
            boolean replayed = Boolean.parseBoolean(row.getAttribute("data-replayed"));
            String shown = row.findElements(By.tagName("td")).get(2).getText();
            if (status.equals("201") && !replayed) {
                first++;
                assertEquals("first", shown);
            } else if (status.equals("201")) {
                assertEquals("replayed", shown, "a replay is labelled as such");
            } else {
                assertEquals("409", status, "every other click is a replay or a 409");
                assertTrue(row.getText().contains("still being processed"), row.getText());
            }
        }
        assertEquals(1, first, "exactly one click placed the order");

        // A sixth click after the order completed: certainly a replay, shown as one.
        submit.click();
        waitUpTo(30).until(d -> answeredRows().size() == 6);
        WebElement sixth = answeredRows().get(5);
        assertEquals("201", sixth.getAttribute("data-status"));
        assertEquals("true", sixth.getAttribute("data-replayed"));
        assertTrue(sixth.getText().contains("replayed"), sixth.getText());
        assertEquals(1, shop.ordersOf(customer).size());

        // The orders table lists the one order.
        String id = String.valueOf(order.getJsonNumber("id").longValue());
        waitUpTo(30).until(d -> !d.findElements(By.cssSelector("#orders tbody tr[data-order-id='" + id + "']"))
                .isEmpty());
        long rowsOfCustomer = browser.findElements(By.cssSelector("#orders tbody tr")).stream()
                .filter(r -> r.getText().contains(customer))
                .count();
        assertEquals(1, rowsOfCustomer);
        screenshot("shop-after-five-clicks.png");

        // "New order" starts a new form fill with a new key: the same content is a second order.
        browser.findElement(By.id("new-order")).click();
        assertNotEquals(key, browser.findElement(By.id("idem-key")).getText());
        submit.click();
        waitUpTo(30).until(d -> answeredRows().size() == 1);
        assertEquals("201", answeredRows().get(0).getAttribute("data-status"));
        assertEquals(2, shop.ordersOf(customer).size());
    }

    @Test
    void payingFromThePageSendsThreeCallbacksAndBooksOnePayment() throws Exception {
        String customer = unique("payer");
        long id = shop.placeOrder(customer, "GRINDER", 1).getJsonNumber("id").longValue();
        browser.get(ShopServer.base().toString());
        By row = By.cssSelector("#orders tbody tr[data-order-id='" + id + "']");
        waitUpTo(30).until(d -> !d.findElements(row).isEmpty());

        browser.findElement(row).findElement(By.cssSelector("button.pay")).click();
        WebElement result = browser.findElement(By.id("payment-result"));
        waitUpTo(60).until(d -> result.getText().contains("three callbacks"));

        assertTrue(result.getText().contains("all three answers are identical"), result.getText());
        assertEquals(
                1, ShopClient.array(shop.get("payments?orderId=" + id).body()).size());
        waitUpTo(30).until(d -> "PAID".equals(d.findElement(row).getAttribute("data-status")));
        screenshot("shop-after-payment.png");
    }

    @Test
    void fiveClicksOnBuyAgainWithOneTokenPlaceOneOrder() throws Exception {
        String customer = unique("again");
        browser.get(ShopServer.base().toString());
        waitUpTo(30).until(d -> !d.findElement(By.id("token")).getText().isBlank());
        WebElement name = browser.findElement(By.id("customer"));
        name.clear();
        name.sendKeys(customer);

        // Five clicks dispatched at once: all leave before the first answer can bring a new token.
        ((ChromeDriver) browser)
                .executeScript("for (let i = 0; i < 5; i++) document.getElementById('buy-again').click();");
        By answered = By.cssSelector("#token-responses tbody tr[data-status]");
        waitUpTo(60).until(d -> d.findElements(answered).size() == 5);

        List<String> statuses = browser.findElements(answered).stream()
                .map(r -> r.getAttribute("data-status"))
                .sorted()
                .toList();
        assertEquals(List.of("201", "409", "409", "409", "409"), statuses);
        assertEquals(1, shop.ordersOf(customer).size());
    }

    @Test
    void aRepaymentDeliveredTenTimesFromThePageSettlesOnce() throws Exception {
        browser.get(ShopServer.base().toString());
        browser.findElement(By.id("open-loan")).click();
        WebElement result = browser.findElement(By.id("delivery-result"));
        waitUpTo(30).until(d -> result.getText().contains("opened"));
        String loan = browser.findElement(By.id("loan-id")).getAttribute("value");

        browser.findElement(By.id("deliver")).click();
        waitUpTo(60).until(d -> result.getText().contains("deliveries at once"));

        assertTrue(
                result.getText().contains("10 deliveries at once -> 1 settlement(s) booked, 1 distinct answer(s)"),
                result.getText());
        assertEquals(
                1,
                ShopClient.array(shop.get("loans/" + loan + "/repayments").body())
                        .size());
        assertEquals(
                0,
                new java.math.BigDecimal("700")
                        .compareTo(ShopClient.object(shop.get("loans/" + loan).body())
                                .getJsonNumber("principalDue")
                                .bigDecimalValue()));
    }

    private static void screenshot(String name) throws Exception {
        File shot = ((ChromeDriver) browser).getScreenshotAs(OutputType.FILE);
        Path dir = Path.of(System.getProperty("shop.logDir", "target"), "screenshots");
        Files.createDirectories(dir);
        Files.copy(shot.toPath(), dir.resolve(name), StandardCopyOption.REPLACE_EXISTING);
    }
}
